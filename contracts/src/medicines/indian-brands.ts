/**
 * Brands most prescribed in India, each with its maker, form and generic composition with strengths, so that a doctor
 * who types a brand ("dolo", "pan 40") finds it and the prescription names the generic.
 *
 * How this list was compiled: written by hand from knowledge of the brands' pack labels, without the labels or any
 * web page at hand while writing (nothing but npm packages can be downloaded here), like the shipped NLEM 2022 file.
 * Only brands whose composition the compiler was sure of are listed; a brand whose strength or ingredients were in
 * doubt was left out (README "Brands" lists some). Check a brand against its current label before clinical reliance:
 * makers reformulate, and brands change hands.
 *
 * Left out on purpose: herbal and Ayurvedic products (Liv 52, Cystone: no single generic to write in capitals, and
 * outside the NLEM's modern medicines); brands of substances under the NDPS Act or in Schedule X that NLEM does not
 * list (alprazolam: the catalogue could not classify them as prohibited, and they may not be prescribed by
 * teleconsultation anyway); vitamin and mineral blends whose every strength could not be stated.
 *
 * Conventions: generic names are NLEM 2022's where NLEM lists the medicine (so a brand is classified under the
 * Guidelines by its composition), else the Indian Pharmacopoeia's; Aspirin keeps its IP name, the one its labels and
 * doctors use (NLEM writes "Acetylsalicylic acid"; either way it is List A); strengths
 * as NLEM writes them; forms are NLEM's dosage forms ("Tablet", "Oral liquid", "Inhalation (MDI or DPI)").
 */

/** Where a brand's mapping is documented, by key (README "Brands" explains them). */
export const BRAND_SOURCES = {
  label: "the maker's pack label and product information: the composition the Drugs and Cosmetics Rules 1945 require on the label",
  nlem: 'NLEM 2022 (Ministry of Health and Family Welfare): the generic name of each ingredient, or of the combination, as the list writes it',
  ip: 'Indian Pharmacopoeia: the generic name (the medicine is not in NLEM 2022)',
} as const;
export type BrandSource = keyof typeof BRAND_SOURCES;

export interface IndianBrand {
  /** As printed on the pack, with the strength or suffix that tells its variants apart ("Dolo 650", "Pan-D"). */
  brand: string;
  manufacturer: string;
  /** NLEM's dosage form. */
  form: string;
  /** Each active ingredient (generic name) with its strength per unit. */
  ingredients: ReadonlyArray<readonly [generic: string, strength: string]>;
  sources: readonly BrandSource[];
}

/** The generic composition as the catalogue and prescriptions write it: "Amoxicillin + Clavulanic acid". */
export const brandGeneric = (b: IndianBrand): string => b.ingredients.map(([generic]) => generic).join(' + ');
/** Its strength the same way: "500 mg + 125 mg". */
export const brandStrength = (b: IndianBrand): string => b.ingredients.map(([, strength]) => strength).join(' + ');

// Makers, written once.
const ABBOTT = 'Abbott India';
const ALEMBIC = 'Alembic Pharmaceuticals';
const ALKEM = 'Alkem Laboratories';
const ARISTO = 'Aristo Pharmaceuticals';
const ASTRAZENECA = 'AstraZeneca Pharma India';
const BLUE_CROSS = 'Blue Cross Laboratories';
const BOEHRINGER = 'Boehringer Ingelheim India';
const CIPLA = 'Cipla';
const DR_REDDYS = "Dr. Reddy's Laboratories";
const EMCURE = 'Emcure Pharmaceuticals';
const FDC = 'FDC Limited';
const FRANCO_INDIAN = 'Franco-Indian Pharmaceuticals';
const GLENMARK = 'Glenmark Pharmaceuticals';
const GSK = 'GlaxoSmithKline Pharmaceuticals';
const HALEON = 'Haleon (formerly GSK Consumer Healthcare)';
const INTAS = 'Intas Pharmaceuticals';
const IPCA = 'Ipca Laboratories';
const JB = 'J. B. Chemicals and Pharmaceuticals';
const LUPIN = 'Lupin';
const MACLEODS = 'Macleods Pharmaceuticals';
const MANKIND = 'Mankind Pharma';
const MICRO = 'Micro Labs';
const MSD = 'MSD Pharmaceuticals (Merck Sharp and Dohme)';
const NOVARTIS = 'Novartis India';
const PFIZER = 'Pfizer';
const PG_HEALTH = 'Procter and Gamble Health (formerly Merck)';
const SANOFI = 'Sanofi India';
const SUN = 'Sun Pharmaceutical Industries';
const TORRENT = 'Torrent Pharmaceuticals';
const USV = 'USV';
const ZYDUS = 'Zydus Lifesciences (formerly Cadila Healthcare)';
const ALLERGAN = 'Allergan (AbbVie)';

type Ingredients = IndianBrand['ingredients'];
/** A brand of generics NLEM 2022 lists. */
const nlem = (brand: string, manufacturer: string, form: string, ingredients: Ingredients): IndianBrand => ({ brand, manufacturer, form, ingredients, sources: ['label', 'nlem'] });
/** A brand with an ingredient NLEM 2022 does not list: named as the Indian Pharmacopoeia names it. */
const ip = (brand: string, manufacturer: string, form: string, ingredients: Ingredients): IndianBrand => ({ brand, manufacturer, form, ingredients, sources: ['label', 'ip'] });

const PCM = 'Paracetamol';

export const INDIAN_BRANDS: readonly IndianBrand[] = [
  // Pain and fever
  nlem('Dolo 650', MICRO, 'Tablet', [[PCM, '650 mg']]),
  nlem('Crocin 650', HALEON, 'Tablet', [[PCM, '650 mg']]),
  nlem('Crocin Advance', HALEON, 'Tablet', [[PCM, '500 mg']]),
  nlem('Calpol 500', GSK, 'Tablet', [[PCM, '500 mg']]),
  nlem('Calpol 650', GSK, 'Tablet', [[PCM, '650 mg']]),
  nlem('Pacimol 650', IPCA, 'Tablet', [[PCM, '650 mg']]),
  nlem('Combiflam', SANOFI, 'Tablet', [['Ibuprofen', '400 mg'], [PCM, '325 mg']]),
  nlem('Brufen 400', ABBOTT, 'Tablet', [['Ibuprofen', '400 mg']]),
  ip('Zerodol', IPCA, 'Tablet', [['Aceclofenac', '100 mg']]),
  ip('Zerodol-P', IPCA, 'Tablet', [['Aceclofenac', '100 mg'], [PCM, '325 mg']]),
  ip('Zerodol-SP', IPCA, 'Tablet', [['Aceclofenac', '100 mg'], [PCM, '325 mg'], ['Serratiopeptidase', '15 mg']]),
  ip('Hifenac-P', INTAS, 'Tablet', [['Aceclofenac', '100 mg'], [PCM, '325 mg']]),
  nlem('Meftal 500', BLUE_CROSS, 'Tablet', [['Mefenamic acid', '500 mg']]),
  nlem('Meftal-Spas', BLUE_CROSS, 'Tablet', [['Mefenamic acid', '250 mg'], ['Dicyclomine', '10 mg']]),
  ip('Nise', DR_REDDYS, 'Tablet', [['Nimesulide', '100 mg']]),
  ip('Sumo', ALKEM, 'Tablet', [['Nimesulide', '100 mg'], [PCM, '325 mg']]),
  ip('Nucoxia 90', ZYDUS, 'Tablet', [['Etoricoxib', '90 mg']]),
  nlem('Ketorol DT', DR_REDDYS, 'Dispersible tablet', [['Ketorolac', '10 mg']]),
  ip('Dolonex DT', PFIZER, 'Dispersible tablet', [['Piroxicam', '20 mg']]),
  nlem('Ultracet', 'Janssen (Johnson and Johnson)', 'Tablet', [['Tramadol', '37.5 mg'], [PCM, '325 mg']]),

  // Acidity, nausea and the gut
  nlem('Pan 20', ALKEM, 'Tablet', [['Pantoprazole', '20 mg']]),
  nlem('Pan 40', ALKEM, 'Tablet', [['Pantoprazole', '40 mg']]),
  nlem('Pan-D', ALKEM, 'Capsule', [['Pantoprazole', '40 mg'], ['Domperidone', '30 mg']]),
  nlem('Pantocid 40', SUN, 'Tablet', [['Pantoprazole', '40 mg']]),
  nlem('Pantocid-DSR', SUN, 'Capsule', [['Pantoprazole', '40 mg'], ['Domperidone', '30 mg']]),
  nlem('Pantop 40', ARISTO, 'Tablet', [['Pantoprazole', '40 mg']]),
  nlem('Omez 20', DR_REDDYS, 'Capsule', [['Omeprazole', '20 mg']]),
  ip('Razo 20', DR_REDDYS, 'Tablet', [['Rabeprazole', '20 mg']]),
  ip('Razo-D', DR_REDDYS, 'Capsule', [['Rabeprazole', '20 mg'], ['Domperidone', '30 mg']]),
  ip('Rablet 20', LUPIN, 'Tablet', [['Rabeprazole', '20 mg']]),
  ip('Nexpro 40', TORRENT, 'Tablet', [['Esomeprazole', '40 mg']]),
  ip('Sompraz 40', SUN, 'Tablet', [['Esomeprazole', '40 mg']]),
  ip('Rantac 150', JB, 'Tablet', [['Ranitidine', '150 mg']]),
  ip('Aciloc 150', ZYDUS, 'Tablet', [['Ranitidine', '150 mg']]),
  nlem('Famocid 20', SUN, 'Tablet', [['Famotidine', '20 mg']]),
  nlem('Famocid 40', SUN, 'Tablet', [['Famotidine', '40 mg']]),
  nlem('Emeset 4', CIPLA, 'Tablet', [['Ondansetron', '4 mg']]),
  nlem('Ondem 4', ALKEM, 'Tablet', [['Ondansetron', '4 mg']]),
  nlem('Perinorm', IPCA, 'Tablet', [['Metoclopramide', '10 mg']]),
  nlem('Domstal', TORRENT, 'Tablet', [['Domperidone', '10 mg']]),
  nlem('Buscopan', SANOFI, 'Tablet', [['Hyoscine butylbromide', '10 mg']]),
  ip('Colospa', ABBOTT, 'Tablet', [['Mebeverine', '135 mg']]),
  nlem('Duphalac', ABBOTT, 'Oral liquid', [['Lactulose', '10 g/15 ml']]),
  nlem('Dulcolax', SANOFI, 'Tablet', [['Bisacodyl', '5 mg']]),
  nlem('Udiliv 300', ABBOTT, 'Tablet', [['Ursodeoxycholic acid', '300 mg']]),
  nlem('Electral', FDC, 'Powder for solution', [['Oral rehydration salts', '21.8 g per litre (WHO formula)']]),
  nlem('Metrogyl 400', JB, 'Tablet', [['Metronidazole', '400 mg']]),
  nlem('Metrogyl 200', JB, 'Tablet', [['Metronidazole', '200 mg']]),

  // Antibacterials, antifungals, antiparasitics
  nlem('Augmentin 625 Duo', GSK, 'Tablet', [['Amoxicillin', '500 mg'], ['Clavulanic acid', '125 mg']]),
  nlem('Clavam 625', ALKEM, 'Tablet', [['Amoxicillin', '500 mg'], ['Clavulanic acid', '125 mg']]),
  nlem('Moxikind-CV 625', MANKIND, 'Tablet', [['Amoxicillin', '500 mg'], ['Clavulanic acid', '125 mg']]),
  nlem('Mox 250', SUN, 'Capsule', [['Amoxicillin', '250 mg']]),
  nlem('Mox 500', SUN, 'Capsule', [['Amoxicillin', '500 mg']]),
  nlem('Novamox 250', CIPLA, 'Capsule', [['Amoxicillin', '250 mg']]),
  nlem('Novamox 500', CIPLA, 'Capsule', [['Amoxicillin', '500 mg']]),
  nlem('Azithral 250', ALEMBIC, 'Tablet', [['Azithromycin', '250 mg']]),
  nlem('Azithral 500', ALEMBIC, 'Tablet', [['Azithromycin', '500 mg']]),
  nlem('Azee 250', CIPLA, 'Tablet', [['Azithromycin', '250 mg']]),
  nlem('Azee 500', CIPLA, 'Tablet', [['Azithromycin', '500 mg']]),
  nlem('Taxim-O 200', ALKEM, 'Tablet', [['Cefixime', '200 mg']]),
  nlem('Zifi 200', FDC, 'Tablet', [['Cefixime', '200 mg']]),
  nlem('Mahacef 200', MANKIND, 'Tablet', [['Cefixime', '200 mg']]),
  nlem('Cifran 250', SUN, 'Tablet', [['Ciprofloxacin', '250 mg']]),
  nlem('Cifran 500', SUN, 'Tablet', [['Ciprofloxacin', '500 mg']]),
  nlem('Ciplox 250', CIPLA, 'Tablet', [['Ciprofloxacin', '250 mg']]),
  nlem('Ciplox 500', CIPLA, 'Tablet', [['Ciprofloxacin', '500 mg']]),
  nlem('Ciplox-TZ', CIPLA, 'Tablet', [['Ciprofloxacin', '500 mg'], ['Tinidazole', '600 mg']]),
  nlem('Ciplox Eye Drops', CIPLA, 'Eye drops', [['Ciprofloxacin', '0.3%']]),
  ip('Norflox 400', CIPLA, 'Tablet', [['Norfloxacin', '400 mg']]),
  ip('Norflox-TZ', CIPLA, 'Tablet', [['Norfloxacin', '400 mg'], ['Tinidazole', '600 mg']]),
  ip('Oflox 200', CIPLA, 'Tablet', [['Ofloxacin', '200 mg']]),
  ip('Oflox-OZ', CIPLA, 'Tablet', [['Ofloxacin', '200 mg'], ['Ornidazole', '500 mg']]),
  nlem('Levoflox 500', CIPLA, 'Tablet', [['Levofloxacin', '500 mg']]),
  nlem('Ceftum 500', GSK, 'Tablet', [['Cefuroxime', '500 mg']]),
  nlem('Ceftum 250', GSK, 'Tablet', [['Cefuroxime', '250 mg']]),
  ip('Cepodem 200', SUN, 'Tablet', [['Cefpodoxime', '200 mg']]),
  nlem('Monocef 1 g', ARISTO, 'Powder for injection', [['Ceftriaxone', '1 g']]),
  nlem('Claribid 500', ABBOTT, 'Tablet', [['Clarithromycin', '500 mg']]),
  nlem('Niftran 100', SUN, 'Tablet', [['Nitrofurantoin', '100 mg']]),
  nlem('Septran DS', GSK, 'Tablet', [['Co-trimoxazole (Sulphamethoxazole + Trimethoprim)', '800 mg + 160 mg']]),
  nlem('Forcan 150', CIPLA, 'Tablet', [['Fluconazole', '150 mg']]),
  nlem('Zocon 150', FDC, 'Tablet', [['Fluconazole', '150 mg']]),
  nlem('Canditral 100', GLENMARK, 'Capsule', [['Itraconazole', '100 mg']]),
  nlem('Candid Cream', GLENMARK, 'Cream', [['Clotrimazole', '1%']]),
  nlem('Zentel', GSK, 'Tablet', [['Albendazole', '400 mg']]),
  nlem('HCQS 200', IPCA, 'Tablet', [['Hydroxychloroquine', '200 mg']]),
  nlem('HCQS 400', IPCA, 'Tablet', [['Hydroxychloroquine', '400 mg']]),

  // Allergy, cough and breathing
  ip('Montair LC', CIPLA, 'Tablet', [['Montelukast', '10 mg'], ['Levocetirizine', '5 mg']]),
  nlem('Montair 10', CIPLA, 'Tablet', [['Montelukast', '10 mg']]),
  ip('Montek LC', SUN, 'Tablet', [['Montelukast', '10 mg'], ['Levocetirizine', '5 mg']]),
  nlem('Allegra 120', SANOFI, 'Tablet', [['Fexofenadine', '120 mg']]),
  nlem('Allegra 180', SANOFI, 'Tablet', [['Fexofenadine', '180 mg']]),
  nlem('Cetzine', DR_REDDYS, 'Tablet', [['Cetirizine', '10 mg']]),
  nlem('Okacet', CIPLA, 'Tablet', [['Cetirizine', '10 mg']]),
  nlem('Alerid', CIPLA, 'Tablet', [['Cetirizine', '10 mg']]),
  ip('Atarax 25', DR_REDDYS, 'Tablet', [['Hydroxyzine', '25 mg']]),
  ip('Ascoril LS', GLENMARK, 'Oral liquid', [['Ambroxol', '30 mg/5 ml'], ['Levosalbutamol', '1 mg/5 ml'], ['Guaifenesin', '50 mg/5 ml']]),
  nlem('Asthalin Inhaler', CIPLA, 'Inhalation (MDI or DPI)', [['Salbutamol', '100 mcg/dose']]),
  nlem('Budecort 200 Inhaler', CIPLA, 'Inhalation (MDI or DPI)', [['Budesonide', '200 mcg/dose']]),
  nlem('Foracort 200 Inhaler', CIPLA, 'Inhalation (MDI or DPI)', [['Budesonide', '200 mcg'], ['Formoterol', '6 mcg']]),
  nlem('Seroflo 250 Inhaler', CIPLA, 'Inhalation (MDI or DPI)', [['Fluticasone', '250 mcg'], ['Salmeterol', '25 mcg']]),
  nlem('Otrivin Adult Nasal Drops', HALEON, 'Nasal drops', [['Xylometazoline', '0.1%']]),

  // Diabetes
  nlem('Glycomet 500', USV, 'Tablet', [['Metformin', '500 mg']]),
  nlem('Glycomet 850', USV, 'Tablet', [['Metformin', '850 mg']]),
  nlem('Glycomet-SR 500', USV, 'Modified release tablet', [['Metformin', '500 mg']]),
  nlem('Glycomet-GP 1', USV, 'Tablet', [['Glimepiride', '1 mg'], ['Metformin', '500 mg']]),
  nlem('Glycomet-GP 2', USV, 'Tablet', [['Glimepiride', '2 mg'], ['Metformin', '500 mg']]),
  nlem('Glyciphage 500', FRANCO_INDIAN, 'Tablet', [['Metformin', '500 mg']]),
  nlem('Gemer 1', SUN, 'Tablet', [['Glimepiride', '1 mg'], ['Metformin', '500 mg']]),
  nlem('Gemer 2', SUN, 'Tablet', [['Glimepiride', '2 mg'], ['Metformin', '500 mg']]),
  nlem('Amaryl 1', SANOFI, 'Tablet', [['Glimepiride', '1 mg']]),
  nlem('Amaryl 2', SANOFI, 'Tablet', [['Glimepiride', '2 mg']]),
  nlem('Amaryl M 1', SANOFI, 'Tablet', [['Glimepiride', '1 mg'], ['Metformin', '500 mg']]),
  nlem('Amaryl M 2', SANOFI, 'Tablet', [['Glimepiride', '2 mg'], ['Metformin', '500 mg']]),
  nlem('Januvia 100', MSD, 'Tablet', [['Sitagliptin', '100 mg']]),
  nlem('Janumet 50/500', MSD, 'Tablet', [['Sitagliptin', '50 mg'], ['Metformin', '500 mg']]),
  nlem('Janumet 50/1000', MSD, 'Tablet', [['Sitagliptin', '50 mg'], ['Metformin', '1000 mg']]),
  nlem('Galvus 50', NOVARTIS, 'Tablet', [['Vildagliptin', '50 mg']]),
  nlem('Galvus Met 50/500', NOVARTIS, 'Tablet', [['Vildagliptin', '50 mg'], ['Metformin', '500 mg']]),
  nlem('Galvus Met 50/1000', NOVARTIS, 'Tablet', [['Vildagliptin', '50 mg'], ['Metformin', '1000 mg']]),
  ip('Trajenta 5', BOEHRINGER, 'Tablet', [['Linagliptin', '5 mg']]),
  nlem('Forxiga 10', ASTRAZENECA, 'Tablet', [['Dapagliflozin', '10 mg']]),
  nlem('Forxiga 5', ASTRAZENECA, 'Tablet', [['Dapagliflozin', '5 mg']]),
  ip('Jardiance 10', BOEHRINGER, 'Tablet', [['Empagliflozin', '10 mg']]),
  ip('Jardiance 25', BOEHRINGER, 'Tablet', [['Empagliflozin', '25 mg']]),
  nlem('Lantus', SANOFI, 'Injection', [['Insulin glargine', '100 IU/ml']]),

  // Blood pressure, heart, cholesterol
  nlem('Telma 20', GLENMARK, 'Tablet', [['Telmisartan', '20 mg']]),
  nlem('Telma 40', GLENMARK, 'Tablet', [['Telmisartan', '40 mg']]),
  nlem('Telma 80', GLENMARK, 'Tablet', [['Telmisartan', '80 mg']]),
  nlem('Telma-H', GLENMARK, 'Tablet', [['Telmisartan', '40 mg'], ['Hydrochlorothiazide', '12.5 mg']]),
  nlem('Telma-AM', GLENMARK, 'Tablet', [['Telmisartan', '40 mg'], ['Amlodipine', '5 mg']]),
  nlem('Amlokind 5', MANKIND, 'Tablet', [['Amlodipine', '5 mg']]),
  nlem('Amlong 5', MICRO, 'Tablet', [['Amlodipine', '5 mg']]),
  nlem('Amlong 10', MICRO, 'Tablet', [['Amlodipine', '10 mg']]),
  nlem('Stamlo 5', DR_REDDYS, 'Tablet', [['Amlodipine', '5 mg']]),
  nlem('Amlopres 5', CIPLA, 'Tablet', [['Amlodipine', '5 mg']]),
  nlem('Amlopres-AT', CIPLA, 'Tablet', [['Amlodipine', '5 mg'], ['Atenolol', '50 mg']]),
  nlem('Aten 50', ZYDUS, 'Tablet', [['Atenolol', '50 mg']]),
  nlem('Repace 50', SUN, 'Tablet', [['Losartan', '50 mg']]),
  nlem('Cilacar 10', JB, 'Tablet', [['Cilnidipine', '10 mg']]),
  ip('Nebicard 5', TORRENT, 'Tablet', [['Nebivolol', '5 mg']]),
  nlem('Cardace 2.5', SANOFI, 'Tablet', [['Ramipril', '2.5 mg']]),
  nlem('Cardace 5', SANOFI, 'Tablet', [['Ramipril', '5 mg']]),
  nlem('Lasix 40', SANOFI, 'Tablet', [['Furosemide', '40 mg']]),
  nlem('Dytor 10', CIPLA, 'Tablet', [['Torsemide', '10 mg']]),
  nlem('Dytor 20', CIPLA, 'Tablet', [['Torsemide', '20 mg']]),
  nlem('Aldactone 25', 'RPG Life Sciences', 'Tablet', [['Spironolactone', '25 mg']]),
  nlem('Atorva 10', ZYDUS, 'Tablet', [['Atorvastatin', '10 mg']]),
  nlem('Atorva 20', ZYDUS, 'Tablet', [['Atorvastatin', '20 mg']]),
  nlem('Atorva 40', ZYDUS, 'Tablet', [['Atorvastatin', '40 mg']]),
  nlem('Storvas 10', SUN, 'Tablet', [['Atorvastatin', '10 mg']]),
  nlem('Rosuvas 10', SUN, 'Tablet', [['Rosuvastatin', '10 mg']]),
  nlem('Rosuvas 20', SUN, 'Tablet', [['Rosuvastatin', '20 mg']]),
  nlem('Rozavel 10', SUN, 'Tablet', [['Rosuvastatin', '10 mg']]),
  ip('Ecosprin 75', USV, 'Tablet', [['Aspirin', '75 mg']]),
  ip('Ecosprin 150', USV, 'Tablet', [['Aspirin', '150 mg']]),
  ip('Ecosprin-AV 75', USV, 'Capsule', [['Aspirin', '75 mg'], ['Atorvastatin', '10 mg']]),
  nlem('Clopilet 75', SUN, 'Tablet', [['Clopidogrel', '75 mg']]),
  nlem('Deplatt 75', TORRENT, 'Tablet', [['Clopidogrel', '75 mg']]),

  // Thyroid, hormones, steroids
  nlem('Thyronorm 25', ABBOTT, 'Tablet', [['Levothyroxine', '25 mcg']]),
  nlem('Thyronorm 50', ABBOTT, 'Tablet', [['Levothyroxine', '50 mcg']]),
  nlem('Thyronorm 75', ABBOTT, 'Tablet', [['Levothyroxine', '75 mcg']]),
  nlem('Thyronorm 100', ABBOTT, 'Tablet', [['Levothyroxine', '100 mcg']]),
  nlem('Eltroxin 50', GSK, 'Tablet', [['Levothyroxine', '50 mcg']]),
  nlem('Eltroxin 100', GSK, 'Tablet', [['Levothyroxine', '100 mcg']]),
  nlem('Thyrox 50', MACLEODS, 'Tablet', [['Levothyroxine', '50 mcg']]),
  nlem('Duphaston', ABBOTT, 'Tablet', [['Dydrogesterone', '10 mg']]),
  nlem('Wysolone 5', PFIZER, 'Tablet', [['Prednisolone', '5 mg']]),
  nlem('Wysolone 10', PFIZER, 'Tablet', [['Prednisolone', '10 mg']]),
  nlem('Wysolone 20', PFIZER, 'Tablet', [['Prednisolone', '20 mg']]),
  nlem('Omnacortil 10', MACLEODS, 'Tablet', [['Prednisolone', '10 mg']]),
  nlem('Medrol 4', PFIZER, 'Tablet', [['Methylprednisolone', '4 mg']]),
  nlem('Medrol 8', PFIZER, 'Tablet', [['Methylprednisolone', '8 mg']]),
  nlem('Medrol 16', PFIZER, 'Tablet', [['Methylprednisolone', '16 mg']]),
  nlem('Dexona', ZYDUS, 'Tablet', [['Dexamethasone', '0.5 mg']]),
  nlem('Urimax 0.4', CIPLA, 'Capsule', [['Tamsulosin', '0.4 mg']]),
  nlem('Zyloric 100', GSK, 'Tablet', [['Allopurinol', '100 mg']]),

  // Vitamins and minerals
  nlem('Shelcal 500', TORRENT, 'Tablet', [['Calcium carbonate', '1250 mg (500 mg elemental calcium)'], ['Cholecalciferol', '250 IU']]),
  ip('Becosules', PFIZER, 'Capsule', [
    ['Thiamine', '10 mg'],
    ['Riboflavin', '10 mg'],
    ['Pyridoxine', '3 mg'],
    ['Cyanocobalamin', '15 mcg'],
    ['Niacinamide', '100 mg'],
    ['Calcium pantothenate', '50 mg'],
    ['Folic acid', '1.5 mg'],
    ['Biotin', '100 mcg'],
    ['Ascorbic acid', '150 mg'],
  ]),
  ip('Evion 400', PG_HEALTH, 'Capsule', [['Tocopheryl acetate (Vitamin E)', '400 mg']]),
  nlem('Limcee', ABBOTT, 'Tablet', [['Ascorbic acid', '500 mg']]),
  nlem('Folvite', PFIZER, 'Tablet', [['Folic acid', '5 mg']]),
  ip('Orofer XT', EMCURE, 'Tablet', [['Ferrous ascorbate', '100 mg elemental iron'], ['Folic acid', '1.5 mg']]),
  nlem('Uprise-D3 60K', ALKEM, 'Capsule', [['Cholecalciferol', '60000 IU']]),
  nlem('Calcirol', ZYDUS, 'Granules', [['Cholecalciferol', '60000 IU']]),

  // Nerves, mind, vertigo
  nlem('Nexito 10', SUN, 'Tablet', [['Escitalopram', '10 mg']]),
  nlem('Nexito 5', SUN, 'Tablet', [['Escitalopram', '5 mg']]),
  ip('Vertin 16', ABBOTT, 'Tablet', [['Betahistine', '16 mg']]),
  ip('Stugeron', 'Janssen (Johnson and Johnson)', 'Tablet', [['Cinnarizine', '25 mg']]),
  nlem('Stemetil', ABBOTT, 'Tablet', [['Prochlorperazine', '5 mg']]),
  nlem('Levipil 500', SUN, 'Tablet', [['Levetiracetam', '500 mg']]),
  nlem('Levipil 250', SUN, 'Tablet', [['Levetiracetam', '250 mg']]),
  nlem('Eptoin 100', ABBOTT, 'Tablet', [['Phenytoin', '100 mg']]),
  nlem('Tegretol 200', NOVARTIS, 'Tablet', [['Carbamazepine', '200 mg']]),
  nlem('Valparin 200', SANOFI, 'Tablet', [['Sodium valproate', '200 mg']]),
  nlem('Syndopa 110', SUN, 'Tablet', [['Levodopa', '100 mg'], ['Carbidopa', '10 mg']]),

  // Skin and eyes
  nlem('Candid-B', GLENMARK, 'Cream', [['Clotrimazole', '1%'], ['Beclometasone', '0.025%']]),
  ip('Betnovate-N', GSK, 'Cream', [['Betamethasone', '0.1%'], ['Neomycin', '0.5%']]),
  ip('Betnovate-C', GSK, 'Cream', [['Betamethasone', '0.1%'], ['Clioquinol', '3%']]),
  nlem('Betnovate', GSK, 'Cream', [['Betamethasone', '0.1%']]),
  nlem('Tenovate', GSK, 'Cream', [['Clobetasol propionate', '0.05%']]),
  nlem('Soframycin', SANOFI, 'Cream', [['Framycetin', '1%']]),
  nlem('T-Bact', GSK, 'Ointment', [['Mupirocin', '2%']]),
  nlem('Moxicip Eye Drops', CIPLA, 'Eye drops', [['Moxifloxacin', '0.5%']]),
  nlem('Refresh Tears', ALLERGAN, 'Eye drops', [['Carboxymethylcellulose', '0.5%']]),
];
