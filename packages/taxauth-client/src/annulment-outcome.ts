/**
 * What an ANECF upload (`annulRanges`) means for the annulment, in the API's terms (spec "Annulments
 * (ANECF)" and the ANECF rows of "States and transitions"): an annulment is never resent automatically,
 * so every outcome is final except `not_sent`, which proves nothing reached the annulment service.
 *
 * - `accepted`: `codigo` 1, every range annulled.
 * - `rejected` (definitive): the annulment service refused the document (HTTP 4xx with its `mensajes`,
 *   or a 2xx with `codigo` 2); nothing was annulled, the ranges are free again.
 * - `uncertain`: a partial annulment (`codigo` 3: some ranges annulled, others not), an answer we do
 *   not understand, or no answer at all after the upload may have been processed. Reconcile, never resend.
 * - `not_sent` (definitive for this attempt): the request provably never reached the annulment service
 *   (authentication failed or unavailable, connection refused before sending, 429, token refused);
 *   nothing was annulled. The `error` says why; it is `retryable` when the cause is transient.
 */
import { TaxauthError, type TTaxauthMessage } from './errors.ts';
import { toTaxauthMessages, type TAnnulmentAnswer } from './schemas.ts';

export type TAnnulmentOutcome =
  | { state: 'accepted'; answer: TAnnulmentAnswer; messages: TTaxauthMessage[] }
  | {
      state: 'rejected';
      answer: TAnnulmentAnswer | undefined;
      error: TaxauthError | undefined;
      messages: TTaxauthMessage[];
    }
  | {
      state: 'uncertain';
      cause: 'partial_annulment' | 'unknown_answer' | 'no_answer';
      answer: TAnnulmentAnswer | undefined;
      error: TaxauthError | undefined;
      messages: TTaxauthMessage[];
    }
  | { state: 'not_sent'; error: TaxauthError; retryable: boolean; messages: TTaxauthMessage[] };

/** DGII's `codigo` values of `RespuestaAnulacionRango` (FACTS §1.9; the simulator uses the same). */
const ANNULMENT_CODES = { accepted: '1', rejected: '2', partial: '3' } as const;

function messagesOf(answer: TAnnulmentAnswer): TTaxauthMessage[] {
  return toTaxauthMessages(answer.mensajes);
}

/** The outcome of an answer `annulRanges` returned. */
export function annulmentOutcomeOfAnswer(answer: TAnnulmentAnswer): TAnnulmentOutcome {
  const messages = messagesOf(answer);
  const code = String(answer.codigo ?? '').trim();
  if (code === ANNULMENT_CODES.accepted) return { state: 'accepted', answer, messages };
  if (code === ANNULMENT_CODES.rejected) return { state: 'rejected', answer, error: undefined, messages };
  return {
    state: 'uncertain',
    cause: code === ANNULMENT_CODES.partial ? 'partial_annulment' : 'unknown_answer',
    answer,
    error: undefined,
    messages,
  };
}

/** The outcome of an error `annulRanges` threw (anything that is not a `TaxauthError` is rethrown). */
export function annulmentOutcomeOfError(error: unknown): TAnnulmentOutcome {
  if (!(error instanceof TaxauthError)) throw error;
  const messages = error.messages ?? [];
  if (error.isOutcomeUnknown)
    return { state: 'uncertain', cause: 'no_answer', answer: undefined, error, messages };
  const answeredByAnnulment =
    error.service === 'anulacionrangos' &&
    error.status !== undefined &&
    (error.reason === 'rejected' ||
      error.reason === 'not_delegated' ||
      error.reason === 'forbidden' ||
      error.reason === 'http_4xx');
  if (answeredByAnnulment) return { state: 'rejected', answer: undefined, error, messages };
  return { state: 'not_sent', error, retryable: error.kind === 'transient', messages };
}

/** Uploads through `annul` (e.g. `() => client.annulRanges({ xml })`) and classifies what came back. */
export async function annulmentOutcomeOf(annul: () => Promise<TAnnulmentAnswer>): Promise<TAnnulmentOutcome> {
  let answer: TAnnulmentAnswer;
  try {
    answer = await annul();
  } catch (error) {
    return annulmentOutcomeOfError(error);
  }
  return annulmentOutcomeOfAnswer(answer);
}
