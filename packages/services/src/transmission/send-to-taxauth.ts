/**
 * One attempt at the tax authority: the claim committed before the request leaves (guarded by the
 * attempts count the run read), the e-CF (or an E32's RFCE summary, built and signed here) sent, and
 * its answer applied.
 */
import { sqlPoolOf, type TDatabase } from '@ecf/db';
import { buildRfceXml, signXml, type TSigningCertificate } from '@ecf/fiscal-core';
import { isTaxauthError, type TEcfStatusAnswer, type TTaxpayerClient } from '@ecf/taxauth-client';
import {
  changeDocument,
  closeEpisode,
  readSignedXml,
  RESERVED_ENCF_SQLSTATE,
  reservingAnnulmentOf,
  type TDocumentState,
  type TTransmissionDocument,
} from '../persistence/index.ts';
import { readSignedEcfTree } from '../shared/signed-ecf-tree.ts';
import {
  applyDefiniteFailure,
  applyRfceVerdict,
  isFinalVerdict,
  markSent,
  recordAttemptOutcome,
  rfceUnsettled,
} from './answer-writes.ts';
import { enterContingency } from './contingency.ts';
import { TRANSMISSION_EVENT_TYPES, type TAttemptOutcome } from './transmission-events.ts';
import {
  TRANSMITTABLE,
  type TTransmissionOptions,
  type TTransmissionReport,
} from './transmission-options.ts';
import { definiteOutcomeOf, keptMessages } from './transmission-rules.ts';

/** How long a send waits when an annulment holds its eNCF's range (the annulment's answer usually comes in seconds). */
const ANNULMENT_HOLD_RETRY_SECONDS = 30;

/** One attempt: claimed (before the request leaves), sent, and its answer applied. */
export async function sendToTaxauth(step: {
  database: TDatabase;
  document: TTransmissionDocument;
  taxpayer: TTaxpayerClient;
  certificate: TSigningCertificate;
  channel: 'ecf' | 'rfce';
  /** The earlier attempt the tax authority never received (resolved just before): its outcome is recorded with the claim. */
  unresolved: { attempt: number; channel: string } | undefined;
  options: TTransmissionOptions;
  now: () => Date;
  /** The signed XML in hand (just signed); read otherwise. */
  signedXml: string | undefined;
  /** The attempt the signature already claimed. */
  claimed: { attempt: number } | undefined;
}): Promise<TTransmissionReport> {
  const { database, document, taxpayer, certificate, channel, unresolved, options, now, claimed } = step;
  const pool = sqlPoolOf(database);
  const signedXml = step.signedXml ?? (await signedXmlOf(database, document));
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
              data: {
                attempt,
                channel,
                at: claimedAt.toISOString(),
                ...(options.workerInstanceId === undefined ? {} : { worker: options.workerInstanceId() }),
              },
              at: claimedAt,
            },
          ],
        }).catch((error: unknown) => {
          // Migration 0013's trigger: an annulment holds the eNCF's range, so the document never
          // leaves. Asked again later: cancelled if the annulment is accepted, sent if it is rejected.
          if (reservingAnnulmentOf(error, RESERVED_ENCF_SQLSTATE.sendClaim) !== null)
            return { moved: false, reserved: true };
          throw error;
        });
  if ('reserved' in claim)
    return {
      documentId: document.id,
      next: 'retry',
      afterSeconds: ANNULMENT_HOLD_RETRY_SECONDS,
      outcome: 'encf_reserved_by_annulment',
    };
  if (!claim.moved) return { documentId: document.id, next: 'retry', afterSeconds: 1, outcome: 'claim_lost' };
  const current = { ...document, attempts: attempt };
  const outcomeEvent = { attempt, channel };

  // A process paused long enough that others may take it for dead sends nothing: the committed
  // attempt is left without outcome and resolved by asking the tax authority first.
  if (options.workerLeaseFresh !== undefined && !options.workerLeaseFresh())
    return { documentId: document.id, next: 'retry', afterSeconds: 1, outcome: 'worker_lease_stale' };
  // When this request leaves: a success closes the episode only if it left after the episode opened.
  const requestedAt = now();
  try {
    if (channel === 'ecf') {
      const reception = await taxpayer.sendEcf({ xml });
      return await markSent(pool, current, {
        trackId: reception.trackId,
        answer: reception,
        outcomeEvent,
        at: now(),
        closeEpisode: { requestedAt },
      });
    }
    const answer = await taxpayer.sendRfce({ xml });
    const restored = await closeEpisode(pool, {
      environment: document.environment,
      service: 'recepcionfc',
      requestedAt,
      at: now(),
    });
    const episode = restored ? 'restored' : undefined;
    if (isFinalVerdict(answer.status)) {
      // A refused resend may be the duplicate of an earlier copy the tax authority accepted.
      const earlier =
        answer.status === 'rejected' && attempt > 1
          ? await earlierCopyVerdict(taxpayer, document)
          : undefined;
      if (earlier === 'unsettled') {
        await recordAttemptOutcome(
          database,
          current,
          { ...outcomeEvent, outcome: 'unknown', detail: 'RFCE refused; Consulta Estado not answered yet' },
          now(),
        );
        return rfceUnsettled(document.id, episode);
      }
      if (earlier !== undefined) {
        const verdict = {
          status: earlier.status,
          messages: [],
          answer: { rfce: answer, consultaEstado: earlier },
          outcomeEvent: { ...outcomeEvent, resolvedBy: 'consultaestado' },
          enqueue: options.enqueue,
          at: now(),
        };
        return await applyRfceVerdict(database, current, verdict, episode);
      }
      const messages = keptMessages(answer.mensajes);
      const verdict = {
        status: answer.status,
        messages,
        answer,
        outcomeEvent,
        enqueue: options.enqueue,
        at: now(),
      };
      return await applyRfceVerdict(database, current, verdict, episode);
    }
    // An RFCE answer that is not final: ask again later (Consulta Estado) before any resend.
    await recordAttemptOutcome(
      database,
      current,
      { ...outcomeEvent, outcome: 'unknown', detail: `RFCE answered ${answer.estado ?? answer.codigo}` },
      now(),
    );
    return rfceUnsettled(document.id, episode);
  } catch (error) {
    if (!isTaxauthError(error)) throw error;
    if (error.isTransient) {
      return enterContingency({
        database,
        document: current,
        error,
        outcome: { ...outcomeEvent, outcome: error.isOutcomeUnknown ? 'unknown' : 'not_received' },
        channel,
        options,
        now,
      });
    }
    const { status, lastError } = definiteOutcomeOf(error);
    await applyDefiniteFailure(database, current, {
      from: TRANSMITTABLE,
      status,
      lastError,
      outcomeEvent,
      at: now(),
    });
    // A refusal is not a successful reception: the episode (if any) waits for one.
    return { documentId: document.id, next: 'done', status, outcome: status, lastError };
  }
}

/**
 * A resent RFCE the tax authority refused: when an earlier attempt's copy is the one it accepted
 * (that answer was lost, Consulta Estado did not see it yet when asked, so the summary went again
 * and met the duplicate answer, "ya fue utilizado"), Consulta Estado asked with the security code
 * of this very E32 says so now, and that acceptance is the verdict. Undefined keeps the refusal
 * (nothing of ours accepted under this eNCF, or the question refused for good); `unsettled` when
 * the question failed for now: the attempt stays unknown and is resolved by asking before any send.
 */
async function earlierCopyVerdict(
  taxpayer: TTaxpayerClient,
  document: TTransmissionDocument,
): Promise<(TEcfStatusAnswer & { status: 'accepted' | 'accepted_conditional' }) | 'unsettled' | undefined> {
  if (document.securityCode === null) return undefined;
  try {
    const status = await taxpayer.getEcfStatus({
      rncEmisor: document.tenant.rnc,
      encf: document.encf,
      codigoSeguridad: document.securityCode,
    });
    return status.status === 'accepted' || status.status === 'accepted_conditional'
      ? { ...status, status: status.status }
      : undefined;
  } catch (error) {
    if (isTaxauthError(error) && error.isTransient) return 'unsettled';
    if (isTaxauthError(error)) return undefined;
    throw error;
  }
}

/** The newest signed XML of the document. */
async function signedXmlOf(database: TDatabase, document: TDocumentState): Promise<string> {
  const xml = await readSignedXml(database, document.id);
  if (xml === undefined)
    throw new Error(`document ${document.id} is ${document.status} but has no signed_xml artifact`);
  return xml;
}
