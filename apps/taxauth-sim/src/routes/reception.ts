/**
 * Reception of e-CF (`/{env}/recepcion/api/facturaselectronicas`, answers a trackId; FACTS §1.3)
 * and of consumer-invoice summaries (`/{env}/recepcionfc/api/recepcion/ecf`, synchronous; §1.5).
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { authorizedCaller, type TSimContext } from '../context.ts';
import { answer, readXmlPart, type TEnvironment } from '../http.ts';
import { judgeDocument, message, type TJudgement } from '../judge.ts';
import { STATES, type TMessage } from '../messages.ts';
import type { TTrack } from '../store.ts';

type TEnvParams = { environment: string };

/**
 * Environments where the consumer-invoice host publishes `recepcionfc`: FACTS §1.1's `testecf` and
 * `ecf`, and `certecf`, where the certification data tests send their four RFCE "through the
 * consumer-invoice host" (certification-sets model README).
 */
export const CONSUMER_RECEPTION_ENVIRONMENTS: readonly TEnvironment[] = ['testecf', 'certecf', 'ecf'];

const NO_MESSAGE: TMessage[] = [{ valor: '', codigo: 0 }];

/**
 * Decides the state of a judged document, takes verdict faults, and records it (burning the
 * e-NCF). In CerteCF, a document of a taxpayer under certification is also compared with its
 * workbook row (each difference a rejection that burns the e-NCF) and, once recorded, counts
 * for (or restarts) the taxpayer's certification step.
 */
async function decide(
  context: TSimContext,
  judgement: TJudgement,
  options: {
    environment: TEnvironment;
    service: string;
    kind: 'ECF' | 'RFCE';
    submitterRnc: string;
    xml: string;
  },
): Promise<TTrack> {
  const receivedAt = context.now();
  const delay = options.kind === 'RFCE' || context.loadTest ? 0 : context.processingDelayMs;
  const finalAt = new Date(receivedAt.getTime() + delay);
  const fields = judgement.fields;
  const base = {
    trackId: randomUUID(),
    environment: options.environment,
    kind: options.kind,
    submitterRnc: options.submitterRnc,
    rncEmisor: fields.rncEmisor ?? null,
    encf: fields.encf ?? null,
    rncComprador: fields.rncComprador ?? null,
    idExtranjero: fields.idExtranjero ?? null,
    montoTotal: fields.montoTotal ?? null,
    totalItbis: fields.totalItbis ?? null,
    fechaEmision: fields.fechaEmision ?? null,
    fechaFirma: fields.fechaFirma ?? null,
    codigoSeguridad: fields.codigoSeguridad ?? null,
    receivedAt,
  };
  if (judgement.stage === 'blocked') {
    const track: TTrack = {
      ...base,
      ...STATES.rejected,
      secuenciaUtilizada: false,
      mensajes: judgement.messages,
      finalAt,
    };
    return context.store.recordSubmission(track, { burn: false, onConflict: () => track });
  }
  const review = await context.certification.reviewReception({
    environment: options.environment,
    kind: options.kind,
    xml: options.xml,
    rncEmisor: fields.rncEmisor,
    encf: fields.encf,
  });
  const rejections = [...(review?.rejections ?? []), ...judgement.rejections];
  const conditions = [...judgement.conditions];
  const fault = (await context.store.hasActiveFaults())
    ? await context.store.takeFault(options.environment, options.service, ['reject', 'accept_conditional'])
    : undefined;
  if (fault?.fault === 'reject') rejections.push(message('injectedRejection'));
  if (fault?.fault === 'accept_conditional') conditions.push(message('injectedConditional'));
  const state =
    rejections.length > 0
      ? STATES.rejected
      : conditions.length > 0
        ? STATES.acceptedConditionally
        : STATES.accepted;
  const mensajes = rejections.length > 0 ? rejections : conditions.length > 0 ? conditions : NO_MESSAGE;
  const track: TTrack = {
    ...base,
    ...state,
    secuenciaUtilizada: true,
    mensajes,
    finalAt: judgement.pending && options.kind === 'ECF' ? null : finalAt,
  };
  const recorded = await context.store.recordSubmission(track, {
    burn: true,
    onConflict: (outcome) => ({
      ...track,
      ...STATES.rejected,
      mensajes: [message(outcome === 'used' ? 'encfUsed' : 'encfAnnulled', { encf: track.encf ?? '' })],
      finalAt,
    }),
  });
  if (review !== undefined) await context.certification.recordReception(review, recorded);
  return recorded;
}

async function receive(
  context: TSimContext,
  request: FastifyRequest<{ Params: TEnvParams }>,
  reply: FastifyReply,
  kind: 'ECF' | 'RFCE',
): Promise<{ track: TTrack } | { answered: FastifyReply }> {
  const caller = await authorizedCaller(
    context,
    request,
    reply,
    kind === 'RFCE' ? CONSUMER_RECEPTION_ENVIRONMENTS : undefined,
  );
  if (caller === undefined) return { answered: reply };
  const { environment, claims } = caller;
  const part = await readXmlPart(request);
  if (!part.ok) {
    const body = {
      trackId: null,
      error: 'Multipart cannot be empty',
      mensaje: 'Debe enviar el archivo XML en el campo xml del formulario multipart',
    };
    return { answered: answer(request, reply, 400, 'RespuestaRecepcion', body) };
  }
  const judgement = judgeDocument({
    xml: part.xml,
    kind,
    fileName: part.fileName,
    tokenRnc: claims.rnc,
    validators: context.validators,
    loadTest: context.loadTest,
  });
  const track = await decide(context, judgement, {
    environment,
    service: kind === 'ECF' ? 'recepcion' : 'recepcionfc',
    kind,
    submitterRnc: claims.rnc,
    xml: part.xml,
  });
  return { track };
}

export function registerReceptionRoutes(app: FastifyInstance, context: TSimContext): void {
  app.post<{ Params: TEnvParams }>(
    '/:environment/recepcion/api/facturaselectronicas',
    async (request, reply) => {
      const outcome = await receive(context, request, reply, 'ECF');
      if ('answered' in outcome) return outcome.answered;
      return answer(request, reply, 200, 'RespuestaRecepcion', {
        trackId: outcome.track.trackId,
        error: null,
        mensaje: null,
      });
    },
  );

  app.post<{ Params: TEnvParams }>('/:environment/recepcionfc/api/recepcion/ecf', async (request, reply) => {
    const outcome = await receive(context, request, reply, 'RFCE');
    if ('answered' in outcome) return outcome.answered;
    const track = outcome.track;
    return answer(request, reply, 200, 'Respuesta', {
      codigo: track.codigo,
      estado: track.estado,
      mensajes: track.mensajes.map((entry) => ({ codigo: String(entry.codigo), valor: entry.valor })),
      encf: track.encf,
      secuenciaUtilizada: track.secuenciaUtilizada,
    });
  });
}
