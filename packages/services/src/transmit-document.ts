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
 *   younger than `inFlightMs` it may still be running elsewhere: the run backs off instead.
 *
 * Classification: no answer, timeout, 5xx or authentication down → `contingency` (5, 10, 20, 30,
 * 30... minutes; at 72 h an operator notification; retries continue); a refusal → `rejected`;
 * not delegated → `transmission_failed` with a hint; other definite failures → `transmission_failed`.
 */
import {
  prepared,
  sqlPoolOf,
  type DocumentStatus,
  type TDatabase,
  type TDocumentState,
  type TSql,
} from '@ecf/db';
import { buildRfceXml, signXml, type TSigningCertificate } from '@ecf/fiscal-core';
import {
  isTaxauthError,
  type TaxauthError,
  type TTaxauthClient,
  type TTaxpayerClient,
} from '@ecf/taxauth-client';
import { loadActiveCertificate, type TCertificateKeyring } from './certificate-store.ts';
import { AppError } from './errors.ts';
import { loadTransmissionDocument, type TTransmissionDocument } from './document-state.ts';
import { changeDocument } from './document-writes.ts';
import { applyWithBuyerEmail } from './email-buyer.ts';
import type { TEnqueueJob } from './job-executor.ts';
import {
  applyDefiniteFailure,
  applyFinalAnswer,
  appendEvent,
  closeEpisode,
  findUnresolvedAttempt,
  notifyIfContingencyTooLong,
  openEpisode,
  taxauthAnswerArtifact,
  TRANSMISSION_EVENT_TYPES,
  type TAttemptOutcome,
  type TOperatorNotification,
} from './transmission-records.ts';
import {
  contingencyWaitSeconds,
  definiteOutcomeOf,
  episodeCodeOf,
  keptMessages,
  readSignedEcfTree,
  rejectionErrorOf,
  transmissionChannelOf,
  type TTransmissionError,
} from './transmission-rules.ts';

/** Options shared by the transmission use-cases. */
export type TTransmissionOptions = {
  /** The tax authority client of an environment. Keep one per environment for the process: it holds the token cache. */
  clientFor: (environment: TDocumentState['environment']) => TTaxauthClient;
  /** Master keys to open the tenant's certificate with (`loadActiveCertificate`). */
  keyring?: TCertificateKeyring;
  /** Overrides how the tenant's certificate is obtained (tests); default `loadActiveCertificate` with `keyring`. */
  loadCertificate?: (tenantId: string) => Promise<TSigningCertificate>;
  /** Clock; default the system clock. Every stored time and every schedule decision reads it. */
  now?: () => Date;
  /**
   * How long an attempt without outcome may still be running in another process (default 2 min:
   * above authentication plus sending with the default 30 s timeout).
   */
  inFlightMs?: number;
  /** Sends an operator notification (the worker logs it at warn). */
  notifyOperator?: (notification: TOperatorNotification) => void | Promise<void>;
  /** Enqueues jobs in an acceptance's transaction (the buyer e-mail of an E32 accepted through its RFCE summary). */
  enqueue?: TEnqueueJob;
};

/** What the caller should do next. `afterSeconds` is counted from now. */
export type TTransmissionNext =
  | { next: 'done'; status: DocumentStatus | 'not_found'; outcome: string }
  | { next: 'poll'; afterSeconds: number; outcome: string }
  | { next: 'retry'; afterSeconds: number; outcome: string };

/** What a step also reports, for logs: episode edges and notifications. */
export type TTransmissionReport = TTransmissionNext & {
  documentId: string;
  episode?: 'degraded' | 'restored';
  notification?: TOperatorNotification;
  lastError?: TTransmissionError;
};

const DEFAULT_IN_FLIGHT_MS = 120_000;
/** First result query this long after the trackId (the tax authority validates in ~200 ms). */
const FIRST_POLL_SECONDS = 1;
/** A synchronous RFCE answer that is not final: ask again this much later (via Consulta Estado). */
const RFCE_UNSETTLED_RETRY_SECONDS = 60;
const TRANSMITTABLE: DocumentStatus[] = ['signed', 'contingency'];

type TChannel = 'ecf' | 'rfce';

/**
 * Sends (or resolves) one signed document. Idempotent: any other status is left as it is.
 * `known`: the document as the signing step that just signed it left it, and its signed XML
 * (exactly what that step committed), saving both reads.
 */
export async function transmitSignedDocument(
  database: TDatabase,
  documentId: string,
  options: TTransmissionOptions,
  known?: {
    document: TTransmissionDocument;
    signedXml: string;
    /** The claim the signing step recorded with the signature (`claimTransmission`): this run owns that attempt and sends at once. */
    claimed?: { attempt: number; channel: 'ecf' };
  },
): Promise<TTransmissionReport> {
  const now = options.now ?? (() => new Date());
  const document = known?.document ?? (await loadTransmissionDocument(database, documentId));
  if (!document) return { documentId, next: 'done', status: 'not_found', outcome: 'not_found' };
  if (document.status === 'sent')
    return { documentId, next: 'poll', afterSeconds: 0, outcome: 'already_sent' };
  if (!TRANSMITTABLE.includes(document.status))
    return { documentId, next: 'done', status: document.status, outcome: 'not_transmittable' };

  const channel: TChannel = transmissionChannelOf(document);
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
    const age = now().getTime() - unresolved.at.getTime();
    const inFlightMs = options.inFlightMs ?? DEFAULT_IN_FLIGHT_MS;
    if (age >= 0 && age < inFlightMs)
      return {
        documentId,
        next: 'retry',
        afterSeconds: Math.max(1, Math.ceil((inFlightMs - age) / 1000)),
        outcome: 'attempt_in_flight',
      };
  }

  let certificate: TSigningCertificate;
  try {
    certificate = await certificateOf(database, document, options);
  } catch (error) {
    if (!(error instanceof AppError) || error.code !== 'CERTIFICATE_NOT_ACTIVE') throw error;
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
  const taxpayer = options
    .clientFor(document.environment)
    .forTaxpayer({ cacheKey: document.tenantId, certificate });

  if (unresolved !== undefined) {
    const resolved = await resolveUnknownOutcome(
      database,
      document,
      taxpayer,
      unresolved,
      channel,
      options,
      now,
    );
    if (resolved !== undefined) return resolved;
  }
  return send(
    database,
    document,
    taxpayer,
    certificate,
    channel,
    unresolved,
    options,
    now,
    known?.signedXml,
    claimed,
  );
}

async function certificateOf(
  database: TDatabase,
  document: TTransmissionDocument,
  options: TTransmissionOptions,
): Promise<TSigningCertificate> {
  if (options.loadCertificate) return options.loadCertificate(document.tenantId);
  if (!options.keyring) throw new TypeError('transmitSignedDocument: give keyring or loadCertificate');
  return loadActiveCertificate(database, document.tenantId, options.keyring, document.activeCertificate);
}

/**
 * Asks the tax authority what became of an attempt whose outcome we do not know. Returns the
 * report when that settles the step, undefined when the tax authority never received it (send).
 */
async function resolveUnknownOutcome(
  database: TDatabase,
  document: TTransmissionDocument,
  taxpayer: TTaxpayerClient,
  unresolved: { attempt: number; channel: string },
  channel: TChannel,
  options: TTransmissionOptions,
  now: () => Date,
): Promise<TTransmissionReport | undefined> {
  const outcomeEvent = {
    attempt: unresolved.attempt,
    channel: unresolved.channel,
    resolvedBy: channel === 'ecf' ? 'consultatrackids' : 'consultaestado',
  };
  try {
    if (channel === 'ecf') {
      const items = await taxpayer.findTrackIds({ rncEmisor: document.tenant.rnc, encf: document.encf });
      // The newest trackId is the one of our last send (a resend after "not received" is the only other source).
      const found = items.at(-1);
      // Nothing there: the send that follows decides whether the outage is over (no restored/degraded flapping).
      if (found === undefined) return undefined;
      return await markSent(
        sqlPoolOf(database),
        document,
        found.trackId,
        { trackIds: items },
        { ...outcomeEvent },
        now(),
      );
    }
    const status = await taxpayer.getEcfStatus({
      rncEmisor: document.tenant.rnc,
      encf: document.encf,
      ...(document.securityCode === null ? {} : { codigoSeguridad: document.securityCode }),
    });
    if (status.status === 'not_found') return undefined;
    const restored = await closeEpisode(sqlPoolOf(database), document.environment, now());
    const episode = restored ? 'restored' : undefined;
    if (
      status.status === 'accepted' ||
      status.status === 'accepted_conditional' ||
      status.status === 'rejected'
    ) {
      const messages: never[] = [];
      const finalAnswer = {
        from: TRANSMITTABLE,
        status: status.status,
        messages,
        lastError: status.status === 'rejected' ? rejectionErrorOf(messages) : null,
        answer: status,
        outcomeEvent,
        at: now(),
      };
      await applyWithBuyerEmail(database, document, finalAnswer.status, options.enqueue, (sql) =>
        applyFinalAnswer(sql, document, finalAnswer),
      );
      return withEpisode(
        { documentId: document.id, next: 'done', status: status.status, outcome: status.status },
        episode,
      );
    }
    return withEpisode(
      {
        documentId: document.id,
        next: 'retry',
        afterSeconds: RFCE_UNSETTLED_RETRY_SECONDS,
        outcome: 'rfce_unsettled',
      },
      episode,
    );
  } catch (error) {
    if (!isTaxauthError(error)) throw error;
    if (error.isTransient) return enterContingency(database, document, error, undefined, options, now);
    const uncertain = { ...definiteOutcomeOf(error).lastError, submissionUncertain: true };
    await applyDefiniteFailure(database, document, {
      from: TRANSMITTABLE,
      status: 'transmission_failed',
      lastError: uncertain,
      at: now(),
    });
    const restored =
      error.status !== undefined && (await closeEpisode(sqlPoolOf(database), document.environment, now()));
    return withEpisode(
      {
        documentId: document.id,
        next: 'done',
        status: 'transmission_failed',
        outcome: 'resolution_failed',
        lastError: uncertain,
      },
      restored ? 'restored' : undefined,
    );
  }
}

async function send(
  database: TDatabase,
  document: TTransmissionDocument,
  taxpayer: TTaxpayerClient,
  certificate: TSigningCertificate,
  channel: TChannel,
  unresolved: { attempt: number; channel: string } | undefined,
  options: TTransmissionOptions,
  now: () => Date,
  signedInHand: string | undefined,
  claimed?: { attempt: number },
): Promise<TTransmissionReport> {
  const pool = sqlPoolOf(database);
  const signedXml = signedInHand ?? (await readSignedXml(pool, document));
  let xml = signedXml;
  if (channel === 'rfce') {
    const tree = readSignedEcfTree(signedXml);
    if (tree === undefined || document.securityCode === null)
      throw new Error(`document ${document.id}: the signed E32 cannot be read back for its RFCE`);
    const rfce = buildRfceXml(tree, { securityCode: document.securityCode });
    if (!rfce.success)
      throw new Error(
        `document ${document.id}: RFCE not buildable: ${rfce.issues.map((issue) => `${issue.path}: ${issue.message}`).join('; ')}`,
      );
    xml = signXml(rfce.data, certificate).xml;
  }

  // The claim: committed before the request leaves (with the signature, or here). Guarded by the attempts count this run read.
  const attempt = claimed?.attempt ?? document.attempts + 1;
  const claimedAt = now();
  const claim =
    claimed !== undefined
      ? { moved: true }
      : await changeDocument(pool, {
          documentId: document.id,
          from: TRANSMITTABLE,
          attempts: document.attempts,
          set: { attempts: attempt },
          events: [
            ...(unresolved === undefined
              ? []
              : [
                  {
                    type: TRANSMISSION_EVENT_TYPES.OUTCOME,
                    data: {
                      attempt: unresolved.attempt,
                      channel: unresolved.channel,
                      outcome: 'not_received' satisfies TAttemptOutcome,
                      resolvedBy: channel === 'ecf' ? 'consultatrackids' : 'consultaestado',
                      at: claimedAt.toISOString(),
                    },
                    at: claimedAt,
                  },
                ]),
            {
              type: TRANSMISSION_EVENT_TYPES.ATTEMPT,
              data: { attempt, channel, at: claimedAt.toISOString() },
              at: claimedAt,
            },
          ],
        });
  if (!claim.moved) return { documentId: document.id, next: 'retry', afterSeconds: 1, outcome: 'claim_lost' };
  const current = { ...document, attempts: attempt };
  const outcomeEvent = { attempt, channel };

  try {
    if (channel === 'ecf') {
      const reception = await taxpayer.sendEcf({ xml });
      return await markSent(pool, current, reception.trackId, reception, outcomeEvent, now());
    }
    const answer = await taxpayer.sendRfce({ xml });
    const restored = await closeEpisode(pool, document.environment, now());
    const episode = restored ? 'restored' : undefined;
    if (
      answer.status === 'accepted' ||
      answer.status === 'accepted_conditional' ||
      answer.status === 'rejected'
    ) {
      const messages = keptMessages(answer.mensajes);
      const finalAnswer = {
        from: TRANSMITTABLE,
        status: answer.status,
        messages,
        lastError: answer.status === 'rejected' ? rejectionErrorOf(messages) : null,
        answer,
        outcomeEvent,
        at: now(),
      };
      await applyWithBuyerEmail(database, current, finalAnswer.status, options.enqueue, (sql) =>
        applyFinalAnswer(sql, current, finalAnswer),
      );
      return withEpisode(
        { documentId: document.id, next: 'done', status: answer.status, outcome: answer.status },
        episode,
      );
    }
    // An RFCE answer that is not final: ask again later (Consulta Estado) before any resend.
    await recordOutcome(
      database,
      current,
      { ...outcomeEvent, outcome: 'unknown', detail: `RFCE answered ${answer.estado ?? answer.codigo}` },
      now(),
    );
    return withEpisode(
      {
        documentId: document.id,
        next: 'retry',
        afterSeconds: RFCE_UNSETTLED_RETRY_SECONDS,
        outcome: 'rfce_unsettled',
      },
      episode,
    );
  } catch (error) {
    if (!isTaxauthError(error)) throw error;
    if (error.isTransient) {
      return enterContingency(
        database,
        current,
        error,
        { ...outcomeEvent, outcome: error.isOutcomeUnknown ? 'unknown' : 'not_received' },
        options,
        now,
      );
    }
    const { status, lastError } = definiteOutcomeOf(error);
    await applyDefiniteFailure(database, current, {
      from: TRANSMITTABLE,
      status,
      lastError,
      outcomeEvent,
      at: now(),
    });
    const restored = error.status !== undefined && (await closeEpisode(pool, document.environment, now()));
    return withEpisode(
      { documentId: document.id, next: 'done', status, outcome: status, lastError },
      restored ? 'restored' : undefined,
    );
  }
}

async function recordOutcome(
  database: TDatabase,
  document: TDocumentState,
  data: { attempt: number; channel: string; outcome: TAttemptOutcome; [key: string]: unknown },
  at: Date,
): Promise<void> {
  await database.$transaction((transaction) =>
    appendEvent(transaction, document, {
      type: TRANSMISSION_EVENT_TYPES.OUTCOME,
      data: { ...data, at: at.toISOString() },
      at,
    }),
  );
}

/** The newest signed XML of the document. */
async function readSignedXml(sql: TSql, document: TDocumentState): Promise<string> {
  const { rows } = await sql.query<{ content: Buffer }>(
    prepared(
      `SELECT content FROM artifacts WHERE document_id = $1::uuid AND kind = 'signed_xml' ORDER BY created_at DESC LIMIT 1`,
      [document.id],
    ),
  );
  const content = rows[0]?.content;
  if (content === undefined)
    throw new Error(`document ${document.id} is ${document.status} but has no signed_xml artifact`);
  return content.toString('utf8');
}

/**
 * The tax authority has the document under `trackId`: `sent`, error cleared, the answer kept,
 * polling starts. The tax authority answered, so the environment's episode closes in the same statement.
 */
async function markSent(
  sql: TSql,
  document: TDocumentState,
  trackId: string,
  answer: unknown,
  outcomeEvent: { attempt: number; channel: string; resolvedBy?: string },
  at: Date,
): Promise<TTransmissionReport> {
  const artifact = taxauthAnswerArtifact(document, answer, at);
  const { moved, restored } = await changeDocument(sql, {
    documentId: document.id,
    from: TRANSMITTABLE,
    set: { status: 'sent', track_id: trackId, last_error: null, contingency_since: null },
    artifacts: [artifact],
    events: [
      {
        type: TRANSMISSION_EVENT_TYPES.OUTCOME,
        data: {
          ...outcomeEvent,
          outcome: 'received',
          trackId,
          artifactId: artifact.id,
          at: at.toISOString(),
        },
        at,
      },
      {
        type: 'sent',
        fromStatus: document.status,
        toStatus: 'sent',
        data: { trackId, attempt: outcomeEvent.attempt },
        at,
      },
    ],
    closeEpisode: { environment: document.environment, at },
  });
  const report: TTransmissionReport = moved
    ? { documentId: document.id, next: 'poll', afterSeconds: FIRST_POLL_SECONDS, outcome: 'sent' }
    : { documentId: document.id, next: 'done', status: document.status, outcome: 'moved_elsewhere' };
  return withEpisode(report, restored ? 'restored' : undefined);
}

/**
 * The tax authority did not answer: `contingency` (entered once, `contingencySince` kept), the
 * environment's episode opened, the next try scheduled on the contingency schedule, and the
 * operator notified at 72 hours.
 */
async function enterContingency(
  database: TDatabase,
  document: TDocumentState,
  error: TaxauthError,
  outcome: { attempt: number; channel: string; outcome: TAttemptOutcome } | undefined,
  options: TTransmissionOptions,
  now: () => Date,
): Promise<TTransmissionReport> {
  const at = now();
  const previous = document.lastError as { code?: unknown; failures?: unknown } | null;
  const failures =
    (previous?.code === 'TAXAUTH_UNAVAILABLE' && typeof previous.failures === 'number'
      ? previous.failures
      : 0) + 1;
  const afterSeconds = contingencyWaitSeconds(failures);
  const since = document.contingencySince ?? at;
  const lastError: TTransmissionError = {
    code: 'TAXAUTH_UNAVAILABLE',
    message: `The tax authority did not answer (${error.reason}): ${error.message}`,
    retrying: true,
    reason: error.reason,
    ...(error.status === undefined ? {} : { httpStatus: error.status }),
    failures,
    nextAttemptAt: new Date(at.getTime() + afterSeconds * 1000).toISOString(),
  };
  const moved = await database.$transaction(async (transaction) => {
    const updated = await transaction.document.updateMany({
      where: { id: document.id, status: { in: TRANSMITTABLE } },
      data: { status: 'contingency', contingencySince: since, lastError: lastError, lastDeferredAt: at },
    });
    if (updated.count === 0) return false;
    if (outcome !== undefined) {
      await appendEvent(transaction, document, {
        type: TRANSMISSION_EVENT_TYPES.OUTCOME,
        data: {
          ...outcome,
          reason: error.reason,
          ...(error.status === undefined ? {} : { httpStatus: error.status }),
          at: at.toISOString(),
        },
        at,
      });
    }
    if (document.status !== 'contingency') {
      await appendEvent(transaction, document, {
        type: 'contingency',
        fromStatus: document.status,
        toStatus: 'contingency',
        data: { code: lastError.code, reason: error.reason },
        at,
      });
    }
    return true;
  });
  if (!moved)
    return { documentId: document.id, next: 'done', status: document.status, outcome: 'moved_elsewhere' };
  const degraded = await openEpisode(sqlPoolOf(database), document.environment, episodeCodeOf(error), at);
  const notification = await notifyIfContingencyTooLong(
    database,
    document,
    since,
    at,
    options.notifyOperator,
  );
  return {
    documentId: document.id,
    next: 'retry',
    afterSeconds,
    outcome: 'contingency',
    lastError,
    ...(degraded ? { episode: 'degraded' as const } : {}),
    ...(notification === undefined ? {} : { notification }),
  };
}

function withEpisode(
  report: TTransmissionReport,
  episode: 'degraded' | 'restored' | undefined,
): TTransmissionReport {
  return episode === undefined ? report : { ...report, episode };
}
