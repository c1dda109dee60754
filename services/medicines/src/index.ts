/**
 * The medicine catalogue (NLEM 2022, India's most-prescribed brands, a clinic's imported brands) and its rules: what a
 * prescription's lines are checked against on the write side and what the search serves on the read side. Both use
 * it; neither owns it.
 */
export { generatedBrandRows, generatedBrands, brandCatalogueCsv, seededRandom } from './generated-catalogue';
export {
  MedicineCatalogue,
  MedicineIndex,
  buildMedicineIndex,
  loadNlem,
  shippedMedicines,
  indianBrandId,
  brandEntry,
  listedStrength,
  suggestion,
  normalize as normalizeMedicineName,
  type MedicineEntry,
  type BrandRow,
} from './catalogue';
