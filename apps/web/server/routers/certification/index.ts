import { createRouter } from '../../trpc/init.ts';
import { attestStep } from './attest-step.ts';
import { getApprovals } from './get-approvals.ts';
import { getCase } from './get-case.ts';
import { getRun } from './get-run.ts';
import { prevalidateSet } from './prevalidate-set.ts';
import { requestActivation } from './request-activation.ts';
import { resendDocument } from './resend-document.ts';
import { restartPart } from './restart-part.ts';
import { sendApprovals } from './send-approvals.ts';
import { startRun } from './start-run.ts';

/**
 * Certification in CerteCF (docs/certification.md) of the active tenant: everyone with access reads
 * the case and its runs (support audited); owners and developers upload sets, start runs, restart a
 * part, send the commercial approvals, attest the human steps, resend a receipt and ask for production.
 */
export const certificationRouter = createRouter({
  case: getCase,
  prevalidate: prevalidateSet,
  startRun,
  run: getRun,
  restart: restartPart,
  approvals: getApprovals,
  sendApprovals,
  attest: attestStep,
  resend: resendDocument,
  requestActivation,
});
