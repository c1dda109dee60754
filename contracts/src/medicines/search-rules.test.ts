import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compactMedicineText, compositionIngredients, medicineMatchRank, prescribedMedicineLabel } from './search-rules';

describe('medicine search rules', () => {
  const dolo = { name: 'Dolo 650', generic_name: 'Paracetamol' };
  const augmentin = { name: 'Augmentin 625 Duo', generic_name: 'Amoxicillin + Clavulanic acid' };

  it('ranks a name prefix (spaces, hyphens, case and accents ignored), then the generic, an ingredient, a word, a substring', () => {
    assert.equal(medicineMatchRank('dolo', dolo), 0);
    assert.equal(medicineMatchRank('DOLO-650', dolo), 0);
    assert.equal(medicineMatchRank('dolo650', dolo), 0);
    assert.equal(medicineMatchRank('paracet', dolo), 1);
    assert.equal(medicineMatchRank('clavulanic', augmentin), 2);
    assert.equal(medicineMatchRank('duo', augmentin), 3);
    assert.equal(medicineMatchRank('ment', augmentin), 4);
    assert.equal(medicineMatchRank('dolutegravir', dolo), null);
    assert.equal(compactMedicineText('Ácido Fólico-5'), 'acidofolico5');
    assert.deepEqual(compositionIngredients('Amoxicillin + Clavulanic acid'), ['amoxicillin', 'clavulanicacid']);
  });

  it('writes the generic in capitals with strength and form, the brand after it when one was prescribed', () => {
    assert.equal(prescribedMedicineLabel({ medicine: 'Dolo 650', generic_name: 'Paracetamol', strength: '650 mg', dosage_form: 'Tablet' }), 'PARACETAMOL 650 mg tablet (Dolo 650)');
    assert.equal(prescribedMedicineLabel({ medicine: 'Paracetamol', generic_name: 'Paracetamol', strength: '500 mg', dosage_form: 'Tablet' }), 'PARACETAMOL 500 mg tablet');
    assert.equal(
      prescribedMedicineLabel({ medicine: 'Augmentin 625 Duo', generic_name: 'Amoxicillin + Clavulanic acid', strength: '500 mg + 125 mg', dosage_form: 'Tablet' }),
      'AMOXICILLIN + CLAVULANIC ACID 500 mg + 125 mg tablet (Augmentin 625 Duo)',
    );
    assert.equal(prescribedMedicineLabel({ medicine: 'Chyawanprash', generic_name: null, strength: null, dosage_form: null }), 'CHYAWANPRASH');
    assert.equal(prescribedMedicineLabel({ medicine: 'Asthalin', generic_name: 'Salbutamol', strength: '100 mcg/dose', dosage_form: 'Inhalation (MDI or DPI)' }), 'SALBUTAMOL 100 mcg/dose inhalation (MDI or DPI) (Asthalin)');
  });
});
