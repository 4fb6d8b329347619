import { z } from 'zod';

/**
 * Job contracts: queue names (dotted constants) and the payload each one carries. The API and
 * the services enqueue with these; the worker parses payloads with them before any handler runs.
 */
export const JOB_CONTRACTS = {
  /** Deletes expired rate-limit windows and idempotency records. Scheduled every 10 minutes. */
  'maintenance.purge-expired': z.strictObject({
    /** Purge what expired before this instant (ISO 8601); default: now. */
    before: z.iso.datetime({ offset: true }).optional(),
  }),
  /**
   * Signs a stored e-CF with its tenant's certificate (the first step after a 202). Enqueued in the
   * same transaction that stores the document; the handler is idempotent (a signed document is
   * left as it is), so a redelivered job never signs twice.
   */
  'document.sign': z.strictObject({ documentId: z.uuid() }),
  /**
   * Sends a signed e-CF (or the RFCE of an E32 below RD$250,000) to the tax authority, resolving an
   * unknown earlier outcome (trackIds by eNCF) before any resend. Retried on the contingency schedule.
   */
  'document.transmit': z.strictObject({ documentId: z.uuid() }),
  /** Asks the tax authority for the result of a sent document's trackId until it is final. */
  'document.poll-status': z.strictObject({ documentId: z.uuid() }),
  /**
   * E-mails the buyer a signed link to the printed representation (`GET /ri/{token}`) once the e-CF
   * is accepted or accepted-conditional, when the account enabled it for the environment. At most
   * once towards the SMTP server: an attempt whose outcome is unknown is looked up (or declared
   * uncertain) before anything is resent; the handler may send itself again for later.
   */
  'document.email-buyer': z.strictObject({ documentId: z.uuid() }),
  /** Delivers an accepted e-CF to the buyer's reception URL (directory) and stores its ARECF. */
  'document.deliver-to-receiver': z.strictObject({ documentId: z.uuid() }),
  /**
   * Finds documents no live job is moving (queued, signed or sent with no pending job, contingency
   * past its next attempt, a job held by a dead worker) and enqueues their next step. Scheduled
   * every minute; the safety net under pg-boss.
   */
  'maintenance.sweep-documents': z.strictObject({}),
  /**
   * Turns pending outbox rows (`webhook_events`, written by triggers with each change) into one
   * delivery per subscribed endpoint and enqueues their `webhook.deliver` jobs. The worker also runs
   * it when the outbox NOTIFYs `ecf_webhook_event`; scheduled every minute as the safety net.
   */
  'webhook.fan-out': z.strictObject({}),
  /**
   * One attempt of a webhook delivery (signed POST of its stored body). A retry is a new job sent
   * with the attempt's outcome, not before the backoff; duplicates are no-ops (guarded claim).
   */
  'webhook.deliver': z.strictObject({ deliveryId: z.uuid() }),
  /**
   * Puts back deliveries whose worker died mid-attempt (lapsed lease) and re-enqueues overdue queued
   * ones of active endpoints. Scheduled every minute (the worker's recovery loop also runs it).
   */
  'maintenance.sweep-webhooks': z.strictObject({}),
  /**
   * Asks the tax authority (Consulta Estado, with the receiving tenant's token) whether a received
   * e-CF is valid, and stores the answer as its `taxauthValidity`. Enqueued with the reception;
   * retried on transient failures.
   */
  'inbound.check-validity': z.strictObject({ inboundDocumentId: z.uuid() }),
  /**
   * One dispatch attempt of a signed commercial approval (ACECF) to the issuer's `urlAceptacion`:
   * the same signed ACECF every time, up to 5 automatic attempts for transient causes, then
   * `dispatch_failed`; no confirmation is `uncertain` (never retried; reconcile).
   */
  'commercial-approval.dispatch': z.strictObject({ commercialApprovalId: z.uuid() }),
  /**
   * Announces `document.commercial_approval_due` once per unanswered received e-CF 3 days or fewer
   * before its deadline. Scheduled every hour.
   */
  'maintenance.commercial-approvals-due': z.strictObject({}),
  /**
   * One step of a certification run (docs/certification.md): documents whose turn came are issued,
   * the answers of issued ones are read, the run ends when every document is accepted or one is
   * rejected. A chain: the job carries the generation it may advance; a stale or duplicate job
   * finds it gone and does nothing.
   */
  'certification.advance': z.strictObject({ runId: z.uuid(), generation: z.number().int().min(0) }),
  /**
   * One commercial approval of a certification approvals send (`ACEECF_Generadas`): signed as the
   * row is written, stored, sent; the first rejection stops the send. A chain like
   * `certification.advance`.
   */
  'certification.send-approvals': z.strictObject({ sendId: z.uuid(), generation: z.number().int().min(0) }),
  /**
   * Completes the certification steps the service observes: an e-CF and an ACECF received in CerteCF
   * (reception tests), the account listed in the tax authority's eCF directory (authorization: the
   * case approved, production active); resumes run and approval chains whose jobs were lost.
   * Scheduled every minute; enqueued at once after an attestation or an activation request.
   */
  'certification.sync': z.strictObject({ tenantId: z.uuid().optional() }),
  /** Daily: certificate.expiring / certificate.expired for the Partner accounts' certificates (issue 20). */
  'maintenance.certificate-expiry': z.strictObject({}),
  /**
   * Builds a large portal export (issue 27: CSV or xlsx of issued or received documents or of the
   * audit log) page by page, recording its progress, and stores the file in `portal_exports`. A
   * redelivered job of a finished export does nothing.
   */
  'export.build': z.strictObject({ exportId: z.uuid() }),
} as const;

/** Channel the outbox triggers (migration 0012) NOTIFY, with an empty payload, when they record an event. */
export const WEBHOOK_EVENT_CHANNEL = 'ecf_webhook_event';

/** Channel of the `documents` status trigger (migration 0002); payload {@link TDocumentStatusNotification}. */
export const DOCUMENT_STATUS_CHANNEL = 'ecf_document_status';
export type TDocumentStatusNotification = {
  documentId: string;
  tenantId: string;
  environment: string;
  status: string;
};

export type TJobName = keyof typeof JOB_CONTRACTS;
export type TJobPayload<TName extends TJobName> = z.infer<(typeof JOB_CONTRACTS)[TName]>;
export const JOB_NAMES = Object.keys(JOB_CONTRACTS) as TJobName[];
/** pg-boss keeps its tables in this schema of the application database. */
export const JOB_QUEUE_SCHEMA = 'pgboss';
