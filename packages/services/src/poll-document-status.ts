/**
 * Follows a `sent` document at the tax authority (Consulta Resultado by trackId) until its answer
 * is final: `accepted`, `accepted_conditional` or `rejected`, with the tax authority's messages
 * kept and the answer stored as evidence. Says when to ask again otherwise; the job handler only
 * schedules it.
 */
import { sqlPoolOf, type TDatabase } from '@ecf/db';
import type { TSigningCertificate } from '@ecf/fiscal-core';
import { isTaxauthError } from '@ecf/taxauth-client';
import { loadActiveCertificate } from './certificate-store.ts';
import { AppError } from './errors.ts';
import { BUYER_EMAIL_STATUSES } from './email-buyer.ts';
import { enqueueJobsOf, type TEnqueueJob, type TEnqueueJobs } from './job-executor.ts';
import type { TFollowUpJob } from './document-writes.ts';
import { loadTransmissionDocument } from './document-state.ts';
import { isDeliveredToReceiver } from './receiver-delivery-records.ts';
import {
  applyFinalAnswer,
  appendEvent,
  closeEpisode,
  openEpisode,
  TRANSMISSION_EVENT_TYPES,
} from './transmission-records.ts';
import {
  CONTINGENCY_MAX_WAIT_SECONDS,
  episodeCodeOf,
  keptMessages,
  pollFailureWaitSeconds,
  pollWaitSeconds,
  rejectionErrorOf,
} from './transmission-rules.ts';
import type { TTransmissionOptions, TTransmissionReport } from './transmit-document.ts';

/**
 * Options of {@link pollDocumentStatus}: with `enqueue`, an acceptance of a type delivered to the
 * buyer (31, 33, 34, 44) records its receiver delivery and enqueues `document.deliver-to-receiver`
 * in the acceptance's own transaction.
 */
export type TPollOptions = TTransmissionOptions & {
  enqueue?: TEnqueueJob;
  /** Enqueues several jobs at once (pg-boss `insert`): a batch of acceptances enqueues its deliveries in one statement. */
  enqueueJobs?: TEnqueueJobs;
};

/** Asks once for the result of a sent document's trackId. Any status but `sent` is left as it is. */
export async function pollDocumentStatus(
  database: TDatabase,
  documentId: string,
  options: TPollOptions,
): Promise<TTransmissionReport> {
  const now = options.now ?? (() => new Date());
  const pool = sqlPoolOf(database);
  const document = await loadTransmissionDocument(database, documentId);
  if (!document) return { documentId, next: 'done', status: 'not_found', outcome: 'not_found' };
  if (document.status !== 'sent')
    return { documentId, next: 'done', status: document.status, outcome: 'not_sent' };
  if (document.trackId === null) throw new Error(`document ${document.id} is sent without a trackId`);
  const sentAt = document.sentAt ?? document.updatedAt;
  const elapsedMs = Math.max(0, now().getTime() - sentAt.getTime());

  let certificate: TSigningCertificate;
  try {
    certificate = options.loadCertificate
      ? await options.loadCertificate(document.tenantId)
      : await loadActiveCertificate(
          database,
          document.tenantId,
          requireKeyring(options),
          document.activeCertificate,
        );
  } catch (error) {
    // The document reached the tax authority; its answer waits there until a certificate is back.
    if (error instanceof AppError && error.code === 'CERTIFICATE_NOT_ACTIVE') {
      return {
        documentId,
        next: 'poll',
        afterSeconds: CONTINGENCY_MAX_WAIT_SECONDS,
        outcome: 'certificate_not_active',
      };
    }
    throw error;
  }
  const taxpayer = options
    .clientFor(document.environment)
    .forTaxpayer({ cacheKey: document.tenantId, certificate });

  try {
    const result = await taxpayer.getResult({ trackId: document.trackId });
    const restored = await closeEpisode(pool, document.environment, now());
    const episode = restored ? ({ episode: 'restored' } as const) : {};
    if (
      result.status === 'accepted' ||
      result.status === 'accepted_conditional' ||
      result.status === 'rejected'
    ) {
      const messages = keptMessages(result.mensajes);
      const finalAnswer = {
        from: ['sent' as const],
        status: result.status,
        messages,
        lastError: result.status === 'rejected' ? rejectionErrorOf(messages) : null,
        answer: result,
        at: now(),
      };
      const enqueue = options.enqueue;
      const delivers = result.status !== 'rejected' && isDeliveredToReceiver(document.type);
      const emails = BUYER_EMAIL_STATUSES.has(result.status) && document.buyerEmailEnabled;
      // An acceptance's next steps (receiver delivery, buyer e-mail) commit with it or not at all.
      const enqueueJobs = options.enqueueJobs ?? (enqueue === undefined ? undefined : enqueueJobsOf(enqueue));
      const jobs: TFollowUpJob[] = [
        ...(delivers
          ? [{ name: 'document.deliver-to-receiver' as const, payload: { documentId: document.id } }]
          : []),
        ...(emails ? [{ name: 'document.email-buyer' as const, payload: { documentId: document.id } }] : []),
      ];
      const followUp =
        enqueueJobs === undefined || jobs.length === 0
          ? undefined
          : { receiverDelivery: delivers, jobs, enqueueJobs };
      const applied = await applyFinalAnswer(pool, document, {
        ...finalAnswer,
        ...(followUp === undefined ? {} : { followUp }),
      });
      return {
        documentId,
        next: 'done',
        status: applied ? result.status : document.status,
        outcome: applied ? result.status : 'moved_elsewhere',
        ...episode,
      };
    }
    // "En Proceso", or not (yet) found under this trackId: ask again, less and less often.
    return {
      documentId,
      next: 'poll',
      afterSeconds: pollWaitSeconds(elapsedMs),
      outcome: result.status,
      ...episode,
    };
  } catch (error) {
    if (!isTaxauthError(error)) throw error;
    if (error.isTransient) {
      const degraded = await openEpisode(pool, document.environment, episodeCodeOf(error), now());
      return {
        documentId,
        next: 'poll',
        afterSeconds: pollFailureWaitSeconds(elapsedMs),
        outcome: `poll_${error.reason}`,
        ...(degraded ? { episode: 'degraded' as const } : {}),
      };
    }
    // A definite refusal of the query itself (the document is at the tax authority): keep it, ask again later.
    const at = now();
    await database.$transaction((transaction) =>
      appendEvent(transaction, document, {
        type: TRANSMISSION_EVENT_TYPES.POLL_FAILED,
        data: {
          trackId: document.trackId,
          reason: error.reason,
          ...(error.status === undefined ? {} : { httpStatus: error.status }),
          message: error.message,
          at: at.toISOString(),
        },
        at,
      }),
    );
    if (error.status !== undefined) await closeEpisode(pool, document.environment, at);
    return {
      documentId,
      next: 'poll',
      afterSeconds: CONTINGENCY_MAX_WAIT_SECONDS,
      outcome: `poll_${error.reason}`,
    };
  }
}

function requireKeyring(options: TTransmissionOptions) {
  if (!options.keyring) throw new TypeError('pollDocumentStatus: give keyring or loadCertificate');
  return options.keyring;
}
