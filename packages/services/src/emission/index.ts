/**
 * Emission: a submission validated (fiscal-core and the official XSD) and either answered
 * (preflight) or stored with its `document.sign` job (202), replays and eNCF conflicts included.
 */
export { preflightDocument } from './preflight-document.ts';
export { issueDocument, type TIssueOutcome } from './issue-document.ts';
export {
  assertSubmissionWithinLimits,
  SUBMISSION_ARRAY_LIMIT,
  SUBMISSION_CONTAINER_LIMIT,
  SUBMISSION_LINE_LIMIT,
  SUBMISSION_MEMBER_LIMIT,
} from './assert-submission-within-limits.ts';
export { takeCpuTurn } from './take-cpu-turn.ts';
export { validateDocumentSubmission } from './validate-document-submission.ts';
export type {
  TSubmissionContext,
  TSubmissionIssue,
  TSubmissionValidation,
} from './validate-document-submission.ts';
