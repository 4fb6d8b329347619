// Task L (issue 18): the received lists, items, kept copies, the validity check and the due sweep.
export {
  announceCommercialApprovalsDue,
  COMMERCIAL_APPROVAL_DUE_WITHIN_DAYS,
} from './announce-commercial-approvals-due.ts';
export {
  checkReceivedValidity,
  securityCodeOf,
  VALIDITY_RECHECK_SECONDS,
} from './check-received-validity.ts';
export { findReceivedApprovals } from './find-received-approvals.ts';
export { findReceivedDocuments } from './find-received-documents.ts';
export {
  receivedSearchFiltersOf,
  searchReceivedDocuments,
  ZReceivedSearchQuery,
  type TReceivedSearchQuery,
} from './search-received-documents.ts';
export { getReceivedApproval } from './get-received-approval.ts';
export { getReceivedApprovalXml } from './get-received-approval-xml.ts';
export { getReceivedDocument } from './get-received-document.ts';
export { getReceivedDocumentXml } from './get-received-document-xml.ts';
export {
  commercialApprovalDeadlineOf,
  receivedGroupOf,
  type TReceivedApproval,
  type TReceivedDocument,
} from './received-items.ts';
export { parseReceivedQuery } from './received-query.ts';
