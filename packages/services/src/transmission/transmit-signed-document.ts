/**
 * Sends a signed e-CF to the tax authority (or, for an E32 below RD$250,000, its RFCE summary) and
 * says what should happen next; the job handler only schedules it.
 *
 * Never twice, never lost:
 * - a `transmission_attempt` event is committed before the request leaves, together with the
 *   guarded increment of `attempts` (two runs that read the same count cannot both send);
 * - its outcome is appended after; an attempt without outcome (crash, or an answer lost after the
 *   request left) is "unknown" and is resolved by asking the tax authority (ConsultaTrackIds by
 *   RNC + eNCF; Consulta Estado for an RFCE) before anything is sent again. While an attempt is
 *   younger than `inFlightMs` it may still be running elsewhere: the run backs off instead, unless
 *   the process that made it is known to be gone (its `worker_instances` lease lapsed): then the
 *   tax authority is asked as soon as what that process sent has settled (`orphanSettleMs` after
 *   its last renewal), which is usually at once.
 *
 * Classification: no answer, timeout, 5xx or authentication down → `contingency` (5, 10, 20, 30,
 * 30... minutes; at 72 h an operator notification; retries continue); a refusal → `rejected`;
 * not delegated → `transmission_failed` with a hint; other definite failures → `transmission_failed`.
 */
import { sqlPoolOf, type TDatabase } from '@ecf/db';
import { resolveDocumentCertificate } from '../accounts/index.ts';
import {
  findWorkerInstanceFate,
  loadTransmissionDocument,
  type TTransmissionDocument,
} from '../persistence/index.ts';
import { applyDefiniteFailure } from './answer-writes.ts';
import { resolveUnknownOutcome } from './resolve-unknown-outcome.ts';
import { sendToTaxauth } from './send-to-taxauth.ts';
import { findUnresolvedAttempt } from './transmission-events.ts';
import {
  DEFAULT_IN_FLIGHT_MS,
  DEFAULT_ORPHAN_SETTLE_MS,
  DEFAULT_WORKER_DEAD_AFTER_SECONDS,
  IN_FLIGHT_RECHECK_SECONDS,
  TRANSMITTABLE,
  type TTransmissionOptions,
  type TTransmissionReport,
} from './transmission-options.ts';
import { transmissionChannelOf, type TTransmissionError } from './transmission-rules.ts';

/**
 * Sends (or resolves) one signed document. Idempotent: any other status is left as it is.
 * `signed`: the document as the signing step that just signed it left it, and its signed XML
 * (exactly what that step committed), saving both reads.
 */
export async function transmitSignedDocument(
  options: TTransmissionOptions & {
    database: TDatabase;
    documentId: string;
    /** The document as the signing step that just signed it left it, and its signed XML. */
    signed?: {
      document: TTransmissionDocument;
      signedXml: string;
      /** The claim the signing step recorded with the signature (`claimTransmission`): this run owns that attempt and sends at once. */
      claimed?: { attempt: number; channel: 'ecf' };
    };
  },
): Promise<TTransmissionReport> {
  const { database, documentId, signed: known } = options;
  const now = options.now ?? (() => new Date());
  const document = known?.document ?? (await loadTransmissionDocument(database, documentId));
  if (!document) return { documentId, next: 'done', status: 'not_found', outcome: 'not_found' };
  if (document.status === 'sent')
    return { documentId, next: 'poll', afterSeconds: 0, outcome: 'already_sent' };
  if (!TRANSMITTABLE.includes(document.status))
    return { documentId, next: 'done', status: document.status, outcome: 'not_transmittable' };

  const channel = transmissionChannelOf(document);
  const claimed =
    known?.claimed !== undefined &&
    known.claimed.attempt === document.attempts &&
    channel === known.claimed.channel
      ? known.claimed
      : undefined;
  // Every attempt increments `attempts` with its event: none counted, none to resolve. The attempt
  // claimed with the signature is this run's own, not one to resolve.
  const unresolved =
    document.attempts === 0 || claimed !== undefined
      ? undefined
      : await findUnresolvedAttempt(database, document.id);
  if (unresolved !== undefined) {
    const waitMs = await inFlightWaitMs(database, unresolved, options, now());
    if (waitMs > 0)
      return {
        documentId,
        next: 'retry',
        afterSeconds: Math.max(1, Math.ceil(waitMs / 1000)),
        outcome: 'attempt_in_flight',
      };
  }

  const resolved = await resolveDocumentCertificate({
    ...options,
    tenantId: document.tenantId,
    active: document.activeCertificate,
    step: 'transmitSignedDocument',
  });
  if (!resolved.ok) {
    const lastError: TTransmissionError = {
      code: 'CERTIFICATE_NOT_ACTIVE',
      message: 'The account has no active certificate to authenticate with the tax authority.',
      retrying: false,
      ...(unresolved === undefined ? {} : { submissionUncertain: true }),
    };
    await applyDefiniteFailure(database, document, {
      from: TRANSMITTABLE,
      status: 'transmission_failed',
      lastError,
      at: now(),
    });
    return {
      documentId,
      next: 'done',
      status: 'transmission_failed',
      outcome: 'certificate_not_active',
      lastError,
    };
  }
  const { certificate } = resolved;
  const taxpayer = options
    .clientFor(document.environment)
    .forTaxpayer({ cacheKey: document.tenantId, certificate });

  if (unresolved !== undefined) {
    const settled = await resolveUnknownOutcome({
      database,
      document,
      taxpayer,
      unresolved,
      channel,
      options,
      now,
    });
    if (settled !== undefined) return settled;
  }
  return sendToTaxauth({
    database,
    document,
    taxpayer,
    certificate,
    channel,
    unresolved,
    options,
    now,
    signedXml: known?.signedXml,
    claimed,
  });
}

/**
 * How long to wait before resolving an attempt without outcome. Until it is `inFlightMs` old it
 * may still be on its way, except when the process that made it is known to be gone (its lease
 * lapsed, or the recovery found it dead): it can send nothing more, and what it sent has been
 * registered by the tax authority (or never will be) once `orphanSettleMs` passed since its last
 * renewal, so the tax authority is asked then, usually at once. While that process may be alive the
 * wait is cut to {@link IN_FLIGHT_RECHECK_SECONDS}, so its death is noticed soon. An attempt of
 * this very process, or one that names no process (older events), waits for the whole window.
 */
async function inFlightWaitMs(
  database: TDatabase,
  unresolved: { at: Date; worker?: string },
  options: TTransmissionOptions,
  at: Date,
): Promise<number> {
  const age = at.getTime() - unresolved.at.getTime();
  const inFlightMs = options.inFlightMs ?? DEFAULT_IN_FLIGHT_MS;
  if (age < 0 || age >= inFlightMs) return 0;
  const remainingMs = inFlightMs - age;
  const owner = unresolved.worker;
  if (owner === undefined || owner === options.workerInstanceId?.()) return remainingMs;
  const fate = await findWorkerInstanceFate(sqlPoolOf(database), {
    id: owner,
    deadAfterSeconds: options.workerDeadAfterSeconds ?? DEFAULT_WORKER_DEAD_AFTER_SECONDS,
    settleMs: options.orphanSettleMs ?? DEFAULT_ORPHAN_SETTLE_MS,
  });
  if (fate.gone) return Math.min(remainingMs, fate.settlesInMs);
  return Math.min(remainingMs, IN_FLIGHT_RECHECK_SECONDS * 1000);
}
