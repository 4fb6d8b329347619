/**
 * @ecf/certification-sets: the tax authority's certification workbooks as data. Reads the
 * "Set de Pruebas e-CF" (`ECF` + `RFCE`) and the "Set Aprobaciones Comerciales"
 * (`ACEECF_Generadas`) as they are, maps each row to the e-CF, RFCE or ACECF tree fiscal-core
 * builds, orders the sends, and issues a workbook per RNC from a template (the simulator's
 * certification portal). Pure apart from reading and writing the bytes it is given; used by the
 * service (`@ecf/services`) and by the tax authority simulator alike.
 */
export {
  readCertificationRowsJson,
  readCertificationWorkbook,
  type TReadWorkbookResult,
} from './read-certification-workbook.ts';
export { workbookRowToEcf, workbookRowToRfce, type TWorkbookDocumentResult } from './workbook-to-ecf.ts';
export { orderCertificationSends } from './order-certification-sends.ts';
export {
  APPROVAL_SET_COLUMNS,
  encfTypeOf,
  formatEncf,
  issueApprovalWorkbook,
  issueEcfWorkbook,
  planEcfRenumbering,
  renumberEcfSet,
  type TApprovalRowInput,
  type TApprovalSetWorkbook,
  type TEcfSetWorkbook,
  type TEncfRenumbering,
  type TIssueWorkbookResult,
  type TNextEncf,
} from './issue-workbook.ts';
export { CERTIFICATION_STEPS, type TCertificationStep } from './certification-steps.ts';
export { MODEL_WORKBOOKS, TAXAUTH_TEST_ISSUER_RNC } from './model-workbooks.ts';
export { parseHeader, resolveColumn, isKnownColumn } from './workbook-columns.ts';
export {
  WORKBOOK_ERROR_CODES,
  type TApprovalRow,
  type TCertificationWorkbook,
  type TTaxauthTree,
  type TWorkbookError,
  type TWorkbookErrorCode,
  type TWorkbookRow,
} from './workbook-types.ts';
