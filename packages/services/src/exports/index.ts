/**
 * Exports (issue 27): CSV and Excel files of issued and received documents (a month or a list's
 * filter, amounts and ITBIS per document, a totals row) and of the audit log, built in the request
 * when small and by the `export.build` job when large, kept 7 days in `portal_exports`.
 */
export { buildExport } from './build-export.ts';
export { createExport, DIRECT_EXPORT_MAX_ROWS, EXPORT_RETENTION_MS } from './create-export.ts';
export {
  centsOf,
  guardFormula,
  writeCsv,
  writeExportFile,
  writeXlsx,
  type TExportFile,
  type TExportFormat,
  type TExportTable,
} from './export-files.ts';
export {
  EXPORT_FORMATS,
  ZAuditExportRequest,
  ZExportFormat,
  ZExportMonth,
  ZIssuedExportRequest,
  ZReceivedExportRequest,
  type TExportRequest,
} from './export-request.ts';
export { dominicanMonthRange, EXPORT_PAGE_SIZE } from './export-sources.ts';
export { getExport, getExportFile, type TExportView } from './get-export.ts';
