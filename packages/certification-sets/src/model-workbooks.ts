/**
 * The two real workbooks kept in `model/`: the tests' fixtures and the templates from which the
 * tax authority simulator issues a workbook per RNC. Locations only; reading them is the caller's I/O.
 */

/** `file:` URLs of the model workbooks (a data-test set for RNC 132641566, an approval set for buyer 131256432). */
export const MODEL_WORKBOOKS = {
  /** "Set de Pruebas e-CF" (`ECF`: 25 rows, `RFCE`: 4 rows). */
  ecfSet: new URL('../model/132641566-set-pruebas-ecf.xlsx', import.meta.url),
  /** "Set Aprobaciones Comerciales" (`ACEECF_Generadas`: 11 rows). */
  approvalSet: new URL('../model/131256432-set-aprobaciones-comerciales.xlsx', import.meta.url),
} as const;

/**
 * The tax authority's test issuer: the issuer of the documents an approval set answers, and the
 * buyer (`RNCComprador`) of the data-test sets' documents.
 */
export const TAXAUTH_TEST_ISSUER_RNC = '131880681';
