/**
 * Every job the worker runs, in one list. Each handler lives in its own file and imports only the
 * shared context (`context.ts`) and, for the transmission jobs, `transmission-step.ts`; no job
 * imports another.
 */
import { defineJob, type TAnyJobDefinition } from './context.ts';
import { deliverToReceiverJob } from './deliver-to-receiver.ts';
import { emailBuyerJob } from './email-buyer.ts';
import { pollDocumentStatusJob } from './poll-document-status.ts';
import { purgeExpired } from './purge-expired.ts';
import { signDocument } from './sign-document.ts';
import { sweepDocumentsJob } from './sweep-documents.ts';
import { transmitDocument } from './transmit-document.ts';
import { deliverWebhookJob } from './deliver-webhook.ts';
import { fanOutWebhooksJob } from './fan-out-webhooks.ts';
import { sweepWebhooksJob } from './sweep-webhooks.ts';
import { dispatchCommercialApprovalJob } from './dispatch-commercial-approval.ts';
import { checkInboundValidityJob } from './check-inbound-validity.ts';
import { announceCommercialApprovalsDueJob } from './announce-commercial-approvals-due.ts';
import { advanceCertificationRunJob } from './advance-certification-run.ts';
import { sendCertificationApprovalsJob } from './send-certification-approvals.ts';
import { syncCertificationJob } from './sync-certification.ts';
import { scanCertificateExpiryJob } from './scan-certificate-expiry.ts';
import { buildExportJob } from './build-export.ts';

export type { TAnyJobDefinition, TJobContext, TJobDefinition, TWebhookSettings } from './context.ts';

/**
 * The lease of a running job (pg-boss `heartbeatSeconds`, its minimum): the worker refreshes the
 * `heartbeat_on` of the jobs it runs every quarter of this, so a job whose heartbeat is older is
 * held by a process that died. `requeueLostDocuments` then gives its document its next step within
 * seconds, and pg-boss fails and retries the job itself at its next supervise pass. `expireInSeconds`
 * stays the longest a LIVE run may take (authentication, resolution and a send, each up to the
 * tax authority timeout).
 */
export const JOB_HEARTBEAT_SECONDS = 10;

/** Every job the worker runs. Adding a job means adding its contract in @ecf/db and a line here. */
export const JOB_REGISTRY: TAnyJobDefinition[] = [
  defineJob({ name: 'maintenance.purge-expired', handle: purgeExpired, schedule: '*/10 * * * *' }),
  // Signing, then sending in the same job. Deferred signing (no usable certificate yet) is retried with backoff for about a day.
  defineJob({
    name: 'document.sign',
    handle: signDocument,
    queue: {
      retryLimit: 50,
      retryDelay: 30,
      retryBackoff: true,
      retryDelayMax: 1800,
      expireInSeconds: 300,
      heartbeatSeconds: JOB_HEARTBEAT_SECONDS,
    },
  }),
  // Transmission: retries on the contingency schedule are jobs the handler sends; these cover crashes and bugs.
  defineJob({
    name: 'document.transmit',
    handle: transmitDocument,
    queue: {
      retryLimit: 50,
      retryDelay: 30,
      retryBackoff: true,
      retryDelayMax: 1800,
      expireInSeconds: 300,
      heartbeatSeconds: JOB_HEARTBEAT_SECONDS,
    },
  }),
  defineJob({
    name: 'document.poll-status',
    handle: pollDocumentStatusJob,
    // One result query (with its authentication): shorter than a send.
    queue: {
      retryLimit: 50,
      retryDelay: 30,
      retryBackoff: true,
      retryDelayMax: 1800,
      expireInSeconds: 150,
      heartbeatSeconds: JOB_HEARTBEAT_SECONDS,
    },
  }),
  defineJob({
    name: 'document.deliver-to-receiver',
    handle: deliverToReceiverJob,
    queue: {
      retryLimit: 20,
      retryDelay: 60,
      retryBackoff: true,
      retryDelayMax: 1800,
      expireInSeconds: 300,
      heartbeatSeconds: JOB_HEARTBEAT_SECONDS,
    },
  }),
  // Buyer e-mail: a failing SMTP server is retried for about a day (1 min doubling to 1 h); never blocks the pipeline.
  defineJob({
    name: 'document.email-buyer',
    handle: emailBuyerJob,
    queue: {
      retryLimit: 30,
      retryDelay: 60,
      retryBackoff: true,
      retryDelayMax: 3600,
      expireInSeconds: 120,
      heartbeatSeconds: JOB_HEARTBEAT_SECONDS,
    },
  }),
  // The safety net: documents no job is moving get their next step (see README "Sweeper").
  defineJob({
    name: 'maintenance.sweep-documents',
    handle: sweepDocumentsJob,
    schedule: '* * * * *',
    queue: { retryLimit: 0, expireInSeconds: 120 },
  }),
  // Webhooks: retries are jobs the handler sends with the backoff; pg-boss's retries cover a failing database.
  defineJob({
    name: 'webhook.deliver',
    handle: deliverWebhookJob,
    queue: {
      retryLimit: 10,
      retryDelay: 10,
      retryBackoff: true,
      retryDelayMax: 600,
      expireInSeconds: 120,
      heartbeatSeconds: JOB_HEARTBEAT_SECONDS,
    },
  }),
  defineJob({
    name: 'webhook.fan-out',
    handle: fanOutWebhooksJob,
    queue: { retryLimit: 5, retryDelay: 5, retryBackoff: true, expireInSeconds: 120 },
  }),
  defineJob({
    name: 'maintenance.sweep-webhooks',
    handle: sweepWebhooksJob,
    schedule: '* * * * *',
    queue: { retryLimit: 0, expireInSeconds: 120 },
  }),
  // Receiving (issue 18, task L): the validity of a received e-CF (Consulta Estado), asked after
  // reception; a failing tax authority is retried for about a day (1 min doubling to 1 h).
  defineJob({
    name: 'inbound.check-validity',
    handle: checkInboundValidityJob,
    queue: {
      retryLimit: 30,
      retryDelay: 60,
      retryBackoff: true,
      retryDelayMax: 3600,
      expireInSeconds: 150,
      heartbeatSeconds: JOB_HEARTBEAT_SECONDS,
    },
  }),
  // Hourly: document.commercial_approval_due, once per unanswered received e-CF.
  defineJob({
    name: 'maintenance.commercial-approvals-due',
    handle: announceCommercialApprovalsDueJob,
    schedule: '7 * * * *',
    queue: { retryLimit: 0, expireInSeconds: 300 },
  }),
  // Daily (issue 20): certificate.expiring (30 days or fewer left) and certificate.expired, once each,
  // for the certificates of Partner accounts.
  defineJob({
    name: 'maintenance.certificate-expiry',
    handle: scanCertificateExpiryJob,
    schedule: '17 10 * * *',
    queue: { retryLimit: 0, expireInSeconds: 300 },
  }),
  // Sending a commercial approval (issue 18, task C): the outbox of the ACECF to its issuer. The
  // use-case schedules its own retries (5 attempts); these cover crashes and bugs.
  defineJob({
    name: 'commercial-approval.dispatch',
    handle: dispatchCommercialApprovalJob,
    queue: {
      retryLimit: 20,
      retryDelay: 60,
      retryBackoff: true,
      retryDelayMax: 1800,
      expireInSeconds: 300,
      heartbeatSeconds: JOB_HEARTBEAT_SECONDS,
    },
  }),
  // Certification (issue 19): runs and approval sends are job chains that schedule themselves
  // (a stale or duplicate job does nothing); the sync resumes lost chains and observes receptions
  // and the authorization every minute.
  defineJob({
    name: 'certification.advance',
    handle: advanceCertificationRunJob,
    queue: {
      retryLimit: 20,
      retryDelay: 10,
      retryBackoff: true,
      retryDelayMax: 300,
      expireInSeconds: 300,
      heartbeatSeconds: JOB_HEARTBEAT_SECONDS,
    },
  }),
  defineJob({
    name: 'certification.send-approvals',
    handle: sendCertificationApprovalsJob,
    queue: {
      retryLimit: 20,
      retryDelay: 10,
      retryBackoff: true,
      retryDelayMax: 300,
      expireInSeconds: 300,
      heartbeatSeconds: JOB_HEARTBEAT_SECONDS,
    },
  }),
  defineJob({
    name: 'certification.sync',
    handle: syncCertificationJob,
    schedule: '* * * * *',
    queue: { retryLimit: 2, retryDelay: 10, expireInSeconds: 300 },
  }),
  // Portal exports too large to build in the request (issue 27); a failure is recorded on the export, not retried.
  defineJob({
    name: 'export.build',
    handle: buildExportJob,
    queue: { retryLimit: 0, expireInSeconds: 900, heartbeatSeconds: JOB_HEARTBEAT_SECONDS },
  }),
];
