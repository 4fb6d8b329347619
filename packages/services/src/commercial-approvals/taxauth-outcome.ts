/**
 * What the tax authority's answer to an ACECF (or its absence) means: accepted, rejected (a
 * well-formed refusal), uncertain (it may have arrived: never resent blindly), or not sent (it
 * provably never reached the service). Shared by the commercial approvals of received e-CF and those
 * of the certification tests.
 */
import { isTaxauthError, type TCommercialApprovalAnswer } from '@ecf/taxauth-client';

export type TTaxauthOutcome =
  | { state: 'accepted' | 'rejected'; answer: Record<string, unknown> }
  | { state: 'uncertain'; answer: Record<string, unknown> }
  | { state: 'not_sent'; answer: Record<string, unknown>; reason: string };

function answerRecord(answer: TCommercialApprovalAnswer | undefined): Record<string, unknown> {
  const record = (answer ?? {}) as Record<string, unknown>;
  const mensajes = record['mensaje'] ?? record['mensajes'];
  const codigo = record['codigo'];
  return {
    codigo: typeof codigo === 'string' || typeof codigo === 'number' ? String(codigo) : null,
    estado: typeof record['estado'] === 'string' ? record['estado'] : null,
    mensajes: Array.isArray(mensajes)
      ? mensajes.map((message) => (typeof message === 'string' ? message : JSON.stringify(message)))
      : [],
  };
}

/** `codigo` and `estado` of a refusal's body (`RespuestaAprobacionComercial` as JSON), when readable. */
function answerOfBody(body: string | undefined): Record<string, unknown> | undefined {
  if (body === undefined) return undefined;
  try {
    const parsed: unknown = JSON.parse(body);
    return parsed !== null && typeof parsed === 'object'
      ? answerRecord(parsed as TCommercialApprovalAnswer)
      : undefined;
  } catch {
    return undefined;
  }
}

/** What the tax authority's answer (or its absence) means for the ACECF. */
export async function taxauthOutcomeOf(
  send: () => Promise<TCommercialApprovalAnswer>,
): Promise<TTaxauthOutcome> {
  let answer: TCommercialApprovalAnswer;
  try {
    answer = await send();
  } catch (error) {
    if (!isTaxauthError(error)) throw error;
    const answered = answerOfBody(error.body);
    const record = {
      codigo: answered?.['codigo'] ?? null,
      estado: answered?.['estado'] ?? null,
      mensajes: (error.messages ?? []).map((message) => String(message.valor ?? message.codigo ?? '')),
      httpStatus: error.status ?? null,
      error: { reason: error.reason, message: error.message.slice(0, 500) },
    };
    if (error.isOutcomeUnknown) return { state: 'uncertain', answer: record };
    const refused =
      error.service === 'aprobacioncomercial' &&
      error.status !== undefined &&
      ['rejected', 'not_delegated', 'forbidden', 'http_4xx', 'not_found'].includes(error.reason);
    if (refused) return { state: 'rejected', answer: record };
    return { state: 'not_sent', answer: record, reason: error.reason };
  }
  const record = answerRecord(answer);
  const code = typeof record['codigo'] === 'string' ? record['codigo'].trim() : '';
  if (code === '1' || code === '01') return { state: 'accepted', answer: record };
  if (code === '2' || code === '02') return { state: 'rejected', answer: record };
  return { state: 'uncertain', answer: record };
}
