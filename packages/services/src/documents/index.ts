/**
 * Issued documents as clients read them: one by reference, status batches, the issued list, the
 * contingency list, the signed XML and the printed representation (PDF), and the buyer's signed
 * link to it (`GET /ri/{token}`).
 */
export { getDocument } from './get-document.ts';
export {
  ACCEPTED_STATUSES,
  CERTIFICATE_WARNING_DAYS,
  summarizeDocuments,
  SUMMARY_DAYS,
  type TCertificateState,
  type TDocumentSummary,
  type TStatusCounts,
} from './summarize-documents.ts';
export { findDocumentStatuses, toStatusResult } from './find-document-statuses.ts';
export {
  findIssuedDocuments,
  toIssuedDocument,
  type TIssuedDocumentFilters,
} from './find-issued-documents.ts';
export {
  ISSUED_COUNT_CAP,
  issuedSearchFiltersOf,
  locateDocuments,
  searchFiltersOf,
  searchIssuedDocuments,
  type TDocumentLocation,
  type TIssuedSearchQuery,
  ZIssuedSearchQuery,
} from './search-issued-documents.ts';
export { findContingencyDocuments, toContingencyItem } from './find-contingency-documents.ts';
export { buildEvidenceBundle, type TEvidenceBundle } from './build-evidence-bundle.ts';
export { getDocumentDetails, type TDocumentDetails, type TTaxauthMessage } from './get-document-details.ts';
export { getSignedDocumentXml } from './get-signed-document-xml.ts';
export { getDocumentPdf } from './get-document-pdf.ts';
export { renderDocumentPdf } from './render-document-pdf.ts';
export { getPdfByRiLink } from './get-pdf-by-ri-link.ts';
export {
  assertPrintable,
  BUYER_DELIVERABLE_STATUSES,
  isPrintable,
  printingOf,
  printingStatusOf,
} from './printing-status.ts';
export {
  checkRiLinkToken,
  createRiLinkToken,
  RI_LINK_MAX_LENGTH,
  RI_LINK_VALIDITY_SECONDS,
  type TRiLinkCheck,
  type TRiLinkPayload,
} from './ri-link.ts';
export { loadSignedTree, textOf, type TPrintedPdf } from './render-document-pdf.ts';
export { loadPrinting, type TPrintingModule } from './printing-module.ts';
