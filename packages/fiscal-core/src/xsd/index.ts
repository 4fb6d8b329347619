/** XSD validation of e-CF, RFCE, ARECF, ANECF, ACECF and SemillaModel documents. */
export {
  createXsdValidators,
  repairSchema,
  XSD_FILE_NAMES,
  type TXsdDocumentKind,
  type TXsdIssue,
  type TXsdResult,
  type TXsdValidators,
  type TXsdValidateOptions,
} from './xsd-validators.ts';
