/**
 * Follows a `sent` document at the tax authority (Consulta Resultado by trackId) until its answer
 * is final: `accepted`, `accepted_conditional` or `rejected`, with the tax authority's messages
 * kept and the answer stored as evidence. Says when to ask again otherwise; the job handler only
 * schedules it.
 */
import { sqlPoolOf, type TDatabase } from '@ecf/db';
import { isTaxauthError } from '@ecf/taxauth-client';
import { resolveDocumentCertificate } from '../accounts/index.ts';
import { appendDocumentEvents, loadTransmissionDocument } from '../persistence/index.ts';
import { acceptanceFollowUp } from './acceptance-follow-ups.ts';
import { applyFinalAnswer } from './answer-writes.ts';
import { TRANSMISSION_EVENT_TYPES } from './transmission-events.ts';
import type { TTransmissionOptions, TTransmissionReport } from './transmission-options.ts';
import {
  CONTINGENCY_MAX_WAIT_SECONDS,
  keptMessages,
  pollFailureWaitSeconds,
  pollWaitSeconds,
  rejectionErrorOf,
} from './transmission-rules.ts';

/** Asks once for the result of a sent document's trackId. Any status but `sent` is left as it is. */
export async function pollDocumentStatus(
  options: TTransmissionOptions & { database: TDatabase; documentId: string },
): Promise<TTransmissionReport> {
  const { database, documentId } = options;
  const now = options.now ?? (() => new Date());
  const pool = sqlPoolOf(database);
  const document = await loadTransmissionDocument(database, documentId);
  if (!document) return { documentId, next: 'done', status: 'not_found', outcome: 'not_found' };
  if (document.status !== 'sent')
    return { documentId, next: 'done', status: document.status, outcome: 'not_sent' };
  if (document.trackId === null) throw new Error(`document ${document.id} is sent without a trackId`);
  const sentAt = document.sentAt ?? document.updatedAt;
  const elapsedMs = Math.max(0, now().getTime() - sentAt.getTime());

  const resolved = await resolveDocumentCertificate({
    ...options,
    tenantId: document.tenantId,
    active: document.activeCertificate,
    step: 'pollDocumentStatus',
  });
  // The document reached the tax authority; its answer waits there until a certificate is back.
  if (!resolved.ok)
    return {
      documentId,
      next: 'poll',
      afterSeconds: CONTINGENCY_MAX_WAIT_SECONDS,
      outcome: 'certificate_not_active',
    };
  const { certificate } = resolved;
  const taxpayer = options
    .clientFor(document.environment)
    .forTaxpayer({ cacheKey: document.tenantId, certificate });

  try {
    // A status answer says nothing about whether documents can be SENT: episodes are left alone
    // (closing one here made one outage of reception alone open and close several episodes).
    const result = await taxpayer.getResult({ trackId: document.trackId });
    if (
      result.status === 'accepted' ||
      result.status === 'accepted_conditional' ||
      result.status === 'rejected'
    ) {
      const messages = keptMessages(result.mensajes);
      const applied = await applyFinalAnswer(pool, document, {
        from: ['sent'],
        status: result.status,
        messages,
        lastError: result.status === 'rejected' ? rejectionErrorOf(messages) : null,
        answer: result,
        at: now(),
        // An acceptance's next steps (receiver delivery, buyer e-mail) commit with it or not at all.
        followUp: acceptanceFollowUp(document, result.status, options.enqueue),
      });
      return {
        documentId,
        next: 'done',
        status: applied ? result.status : document.status,
        outcome: applied ? result.status : 'moved_elsewhere',
      };
    }
    // "En Proceso", or not (yet) found under this trackId: ask again, less and less often.
    return {
      documentId,
      next: 'poll',
      afterSeconds: pollWaitSeconds(elapsedMs),
      outcome: result.status,
    };
  } catch (error) {
    if (!isTaxauthError(error)) throw error;
    // The document already reached the tax authority: a failing status query delays its answer
    // but sends nothing to contingency, so it opens no episode.
    if (error.isTransient)
      return {
        documentId,
        next: 'poll',
        afterSeconds: pollFailureWaitSeconds(elapsedMs),
        outcome: `poll_${error.reason}`,
      };
    // A definite refusal of the query itself (the document is at the tax authority): keep it, ask again later.
    const at = now();
    await appendDocumentEvents(pool, {
      documentId: document.id,
      events: [
        {
          type: TRANSMISSION_EVENT_TYPES.POLL_FAILED,
          data: {
            trackId: document.trackId,
            reason: error.reason,
            ...(error.status === undefined ? {} : { httpStatus: error.status }),
            message: error.message,
            at: at.toISOString(),
          },
          at,
        },
      ],
    });
    return {
      documentId,
      next: 'poll',
      afterSeconds: CONTINGENCY_MAX_WAIT_SECONDS,
      outcome: `poll_${error.reason}`,
    };
  }
}
