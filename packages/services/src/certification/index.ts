/**
 * Certification (docs/certification.md): the case and its fifteen steps, runs of the tax
 * authority's test sets driven by the `certification.advance` job, the commercial approval tests,
 * restarts, resends, attestations, the evidence, and the sync that observes receptions and the
 * authorization.
 */
export {
  advanceCertificationApprovals,
  type TApprovalsAdvanceReport,
} from './advance-certification-approvals.ts';
export { advanceCertificationRun, type TAdvanceReport } from './advance-certification-run.ts';
export {
  decodeWorkbookBase64,
  readCertificationSetRequest,
  WORKBOOK_BASE64_MAX_CHARACTERS,
  ZCertificationSetRequest,
} from './certification-request.ts';
export {
  ATTESTABLE_STEPS,
  CERTIFICATION_STEP_INFO,
  CERTIFICATION_STEPS,
  stepsOfPart,
} from './certification-steps.ts';
export type {
  TCertificationApprovalsView,
  TCertificationCaseView,
  TCertificationItemBody,
  TCertificationRunSummary,
  TCertificationRunView,
  TCertificationStepView,
} from './certification-views.ts';
export { getCertificationApprovals } from './get-certification-approvals.ts';
export { getCertificationCase } from './get-certification-case.ts';
export {
  getCertificationEvidence,
  getCertificationRunFile,
  type TCertificationEvidence,
  type TCertificationRunFile,
  type TEvidenceSelection,
} from './get-certification-evidence.ts';
export { getCertificationRun } from './get-certification-run.ts';
export {
  prevalidateCertificationSet,
  type TCertificationPrevalidation,
} from './prevalidate-certification-set.ts';
export {
  ATTESTATION_LIMITS,
  recordCertificationAttestation,
  ZAttestationInput,
  type TAttestationInput,
} from './record-certification-attestation.ts';
export { requestProductionActivation } from './request-production-activation.ts';
export { resendCertificationDocument, type TResendResult } from './resend-certification-document.ts';
export { restartCertificationPart, type TRestartResult } from './restart-certification-part.ts';
export {
  sendCertificationApprovals,
  type TSendCertificationApprovalsResult,
} from './send-certification-approvals.ts';
export { startCertificationRun, type TStartCertificationRunResult } from './start-certification-run.ts';
export { syncCertificationCases, type TSyncReport } from './sync-certification-cases.ts';
// Partner certification (issue 20): test sets, cases, the official catalogue, the application data,
// XML signatures and the embedded page's links.
export {
  findCertificationTestSets,
  uploadCertificationTestSet,
  type TCertificationTestSet,
} from './upload-certification-test-set.ts';
export {
  changeCertificationOfficialSet,
  closeCertificationCase,
  createCertificationCase,
} from './manage-certification-case.ts';
export {
  listAllOfficialSets,
  listOfficialSets,
  loadOfficialSet,
  retireOfficialSet,
  type TOfficialSet,
  type TOfficialSetDetail,
} from './official-sets.ts';
export { getTaxauthRegistration, type TTaxauthRegistration } from './get-taxauth-registration.ts';
export { CERTIFICATION_XML_MAX_BYTES, signCertificationXml } from './sign-certification-xml.ts';
export {
  CERTIFICATION_EMBED_SECONDS,
  checkCertificationEmbedToken,
  createCertificationEmbedToken,
  type TEmbedClaims,
} from './certification-embed.ts';
export { findCertificationSummaries, type TCertificationSummary } from './find-certification-summaries.ts';
export { assertDirectCertification } from './certification-guards.ts';
