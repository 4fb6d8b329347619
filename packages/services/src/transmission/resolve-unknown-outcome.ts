import { sqlPoolOf, type TDatabase } from '@ecf/db';
import { isTaxauthError, type TTaxpayerClient } from '@ecf/taxauth-client';
import type { TTransmissionDocument } from '../persistence/index.ts';
import {
  applyDefiniteFailure,
  applyRfceVerdict,
  isFinalVerdict,
  markSent,
  rfceUnsettled,
} from './answer-writes.ts';
import { enterContingency } from './contingency.ts';
import {
  TRANSMITTABLE,
  type TTransmissionOptions,
  type TTransmissionReport,
} from './transmission-options.ts';
import { definiteOutcomeOf } from './transmission-rules.ts';

/**
 * Asks the tax authority what became of an attempt whose outcome we do not know (ConsultaTrackIds
 * by RNC + eNCF for an e-CF, Consulta Estado for an RFCE). Returns the report when that settles the
 * step, undefined when the tax authority never received it (the caller sends).
 */
export async function resolveUnknownOutcome(step: {
  database: TDatabase;
  document: TTransmissionDocument;
  taxpayer: TTaxpayerClient;
  /** The attempt without a known outcome. */
  unresolved: { attempt: number; channel: string };
  /** How the document goes now (`ecf` is asked with ConsultaTrackIds, `rfce` with Consulta Estado). */
  channel: 'ecf' | 'rfce';
  options: TTransmissionOptions;
  now: () => Date;
}): Promise<TTransmissionReport | undefined> {
  const { database, document, taxpayer, unresolved, channel, options, now } = step;
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
      // Nothing there: the send that follows decides whether the outage is over. A trackId found is
      // no evidence either (the reception may predate the outage): only a send's own answer closes an episode.
      if (found === undefined) return undefined;
      return await markSent(sqlPoolOf(database), document, {
        trackId: found.trackId,
        answer: { trackIds: items },
        outcomeEvent,
        at: now(),
      });
    }
    const status = await taxpayer.getEcfStatus({
      rncEmisor: document.tenant.rnc,
      encf: document.encf,
      ...(document.securityCode === null ? {} : { codigoSeguridad: document.securityCode }),
    });
    if (status.status === 'not_found') return undefined;
    if (!isFinalVerdict(status.status)) return rfceUnsettled(document.id, undefined);
    const verdict = {
      status: status.status,
      messages: [],
      answer: status,
      outcomeEvent,
      enqueue: options.enqueue,
      at: now(),
    };
    return await applyRfceVerdict(database, document, verdict, undefined);
  } catch (error) {
    if (!isTaxauthError(error)) throw error;
    if (error.isTransient) return enterContingency({ database, document, error, channel, options, now });
    const uncertain = { ...definiteOutcomeOf(error).lastError, submissionUncertain: true };
    await applyDefiniteFailure(database, document, {
      from: TRANSMITTABLE,
      status: 'transmission_failed',
      lastError: uncertain,
      at: now(),
    });
    return {
      documentId: document.id,
      next: 'done',
      status: 'transmission_failed',
      outcome: 'resolution_failed',
      lastError: uncertain,
    };
  }
}
