/**
 * Queries: result by trackId (§1.4), ConsultaTrackIds (§1.7), Consulta Estado (§1.6) and
 * ConsultaRFCE (§1.5). A state becomes visible once its processing delay has passed; before that
 * the document is "En Proceso".
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { authorizedCaller, type TSimContext } from '../context.ts';
import { answer, formatReceptionDate, queryValue, validationProblem, type TEnvironment } from '../http.ts';
import { ECF_MESSAGES, STATES, TRACK_IDS_MESSAGES } from '../messages.ts';
import type { TTrack } from '../store.ts';

type TEnvParams = { environment: string };

/** Environments where `consultarfce` is published (FACTS §1.5: production only). */
export const SUMMARY_QUERY_ENVIRONMENTS: readonly TEnvironment[] = ['ecf'];

const ENCF_FORMAT = /^[EeA-Za-z]\d{12}$/;

/** The state as a caller sees it now. */
export function visibleState(track: TTrack, now: Date): { codigo: number; estado: string; final: boolean } {
  if (track.finalAt === null || track.finalAt.getTime() > now.getTime())
    return { ...STATES.inProcess, final: false };
  return { codigo: track.codigo, estado: track.estado, final: true };
}

function notAuthorized(reply: FastifyReply, text: string): FastifyReply {
  return reply.code(403).type('application/problem+json; charset=utf-8').send({ title: text, status: 403 });
}

function amount(text: string | null): number | null {
  if (text === null) return null;
  const value = Number(text);
  return Number.isFinite(value) ? value : null;
}

export function registerQueryRoutes(app: FastifyInstance, context: TSimContext): void {
  app.get<{ Params: TEnvParams }>(
    '/:environment/consultaresultado/api/consultas/estado',
    async (request, reply) => {
      const caller = await authorizedCaller(context, request, reply);
      if (caller === undefined) return reply;
      const { environment, claims } = caller;
      const trackId = queryValue(request, 'trackid');
      if (trackId === undefined)
        return validationProblem(reply, { trackId: ['The trackId field is required.'] });
      const found = /^[0-9a-f-]{36}$/i.test(trackId)
        ? await context.store.getTrack(environment, trackId)
        : undefined;
      const track =
        found?.kind === 'ECF' && (found.submitterRnc === claims.rnc || found.rncEmisor === claims.rnc)
          ? found
          : undefined;
      if (track === undefined) {
        return answer(request, reply, 200, 'RespuestaConsultaTrackId', {
          trackId,
          ...STATES.notFound,
          rnc: null,
          encf: null,
          secuenciaUtilizada: false,
          fechaRecepcion: null,
          mensajes: [{ valor: ECF_MESSAGES.notFound.text, codigo: ECF_MESSAGES.notFound.codigo }],
        });
      }
      const state = visibleState(track, context.now());
      return answer(request, reply, 200, 'RespuestaConsultaTrackId', {
        trackId: track.trackId,
        codigo: state.codigo,
        estado: state.estado,
        rnc: track.rncEmisor,
        encf: track.encf,
        secuenciaUtilizada: state.final ? track.secuenciaUtilizada : true,
        fechaRecepcion: formatReceptionDate(track.receivedAt),
        mensajes: state.final ? track.mensajes : [{ valor: '', codigo: 0 }],
      });
    },
  );

  app.get<{ Params: TEnvParams }>(
    '/:environment/consultatrackids/api/trackids/consulta',
    async (request, reply) => {
      const caller = await authorizedCaller(context, request, reply);
      if (caller === undefined) return reply;
      const { environment, claims } = caller;
      const rnc = queryValue(request, 'rncemisor');
      const encf = queryValue(request, 'encf');
      const errors: Record<string, string[]> = {};
      if (rnc === undefined) errors['RncEmisor'] = [TRACK_IDS_MESSAGES.rncRequired];
      else if (!/^(\d{9}|\d{11})$/.test(rnc)) errors['RncEmisor'] = [TRACK_IDS_MESSAGES.rncLength];
      if (encf === undefined) errors['Encf'] = [TRACK_IDS_MESSAGES.encfRequired];
      else if (encf.length !== 13) errors['Encf'] = [TRACK_IDS_MESSAGES.encfLength];
      else if (!ENCF_FORMAT.test(encf)) errors['Encf'] = [TRACK_IDS_MESSAGES.encfInvalid];
      if (Object.keys(errors).length > 0 || rnc === undefined || encf === undefined)
        return validationProblem(reply, errors);
      if (rnc !== claims.rnc) return notAuthorized(reply, TRACK_IDS_MESSAGES.notAuthorized);
      const now = context.now();
      const tracks = await context.store.tracksOf(environment, rnc, encf, 'ECF');
      return answer(
        request,
        reply,
        200,
        'TrackingDetalle',
        tracks.map((track) => ({
          trackId: track.trackId,
          estado: visibleState(track, now).estado,
          fechaRecepcion: formatReceptionDate(track.receivedAt),
        })),
      );
    },
  );

  app.get<{ Params: TEnvParams }>(
    '/:environment/consultaestado/api/consultas/estado',
    async (request, reply) => {
      const caller = await authorizedCaller(context, request, reply);
      if (caller === undefined) return reply;
      const { environment, claims } = caller;
      const rnc = queryValue(request, 'rncemisor');
      const encf = queryValue(request, 'ncfelectronico');
      const buyer = queryValue(request, 'rnccomprador');
      const code = queryValue(request, 'codigoseguridad');
      const errors: Record<string, string[]> = {};
      if (rnc === undefined) errors['RncEmisor'] = [TRACK_IDS_MESSAGES.rncRequired];
      if (encf === undefined) errors['NcfElectronico'] = ['El campo NCF Electrónico es requerido.'];
      if (rnc === undefined || encf === undefined) return validationProblem(reply, errors);

      const now = context.now();
      // The `query_lag` fault: the query does not see what reception recorded yet.
      const lagging =
        (await context.store.hasActiveFaults()) &&
        (await context.store.takeFault(environment, 'consultaestado', ['query_lag'])) !== undefined;
      const tracks = lagging ? [] : await context.store.tracksOf(environment, rnc, encf);
      const decided = tracks.filter((track) => visibleState(track, now).final);
      const chosen =
        [...decided]
          .reverse()
          .find(
            (track) =>
              track.codigo === STATES.accepted.codigo || track.codigo === STATES.acceptedConditionally.codigo,
          ) ??
        decided.at(-1) ??
        tracks.at(-1);
      const matches =
        chosen !== undefined &&
        (buyer === undefined || buyer === chosen.rncComprador) &&
        (code === undefined || code === chosen.codigoSeguridad);
      if (chosen !== undefined && matches && claims.rnc !== rnc && claims.rnc !== chosen.rncComprador)
        return notAuthorized(reply, TRACK_IDS_MESSAGES.notAuthorized);
      if (chosen === undefined || !matches) {
        return answer(request, reply, 200, 'RespuestaConsultaEstado', {
          ...STATES.notFound,
          rncEmisor: rnc,
          ncfElectronico: encf,
          montoTotal: null,
          totalITBIS: null,
          fechaEmision: null,
          fechaFirma: null,
          rncComprador: buyer ?? null,
          codigoSeguridad: code ?? null,
          idExtranjero: null,
        });
      }
      let state: { codigo: number; estado: string } = visibleState(chosen, now);
      // "Aceptado Condicional" is only shown for consumer invoices below the threshold (FACTS §1.6).
      if (state.codigo === STATES.acceptedConditionally.codigo && chosen.kind === 'ECF')
        state = STATES.accepted;
      return answer(request, reply, 200, 'RespuestaConsultaEstado', {
        codigo: state.codigo,
        estado: state.estado,
        rncEmisor: chosen.rncEmisor,
        ncfElectronico: chosen.encf,
        montoTotal: amount(chosen.montoTotal),
        totalITBIS: amount(chosen.totalItbis),
        fechaEmision: chosen.fechaEmision,
        fechaFirma: chosen.fechaFirma,
        rncComprador: chosen.rncComprador,
        codigoSeguridad: chosen.codigoSeguridad,
        idExtranjero: chosen.idExtranjero,
      });
    },
  );

  app.get<{ Params: TEnvParams }>(
    '/:environment/consultarfce/api/consultas/consulta',
    async (request, reply) => {
      const caller = await authorizedCaller(context, request, reply, SUMMARY_QUERY_ENVIRONMENTS);
      if (caller === undefined) return reply;
      const { environment, claims } = caller;
      const rnc = queryValue(request, 'rnc_emisor', 'rncemisor');
      const encf = queryValue(request, 'encf');
      const code = queryValue(request, 'cod_seguridad_ecf', 'codigoseguridad');
      const errors: Record<string, string[]> = {};
      if (rnc === undefined) errors['RNC_Emisor'] = [TRACK_IDS_MESSAGES.rncRequired];
      if (encf === undefined) errors['ENCF'] = [TRACK_IDS_MESSAGES.encfRequired];
      if (code === undefined) errors['Cod_Seguridad_eCF'] = ['El campo Código de Seguridad es requerido.'];
      if (rnc === undefined || encf === undefined || code === undefined)
        return validationProblem(reply, errors);
      if (claims.rnc !== rnc) return notAuthorized(reply, TRACK_IDS_MESSAGES.notAuthorized);
      const track = (await context.store.tracksOf(environment, rnc, encf, 'RFCE'))
        .filter((candidate) => candidate.codigoSeguridad === code)
        .at(-1);
      if (track === undefined) {
        return answer(request, reply, 200, 'RespuestaConsultaRFCE', {
          rnc,
          encf,
          secuenciaUtilizada: false,
          codigo: String(STATES.notFound.codigo),
          estado: STATES.notFound.estado,
          mensajes: [
            { valor: 'No existe un resumen de factura de consumo con los datos indicados', codigo: 0 },
          ],
        });
      }
      return answer(request, reply, 200, 'RespuestaConsultaRFCE', {
        rnc: track.rncEmisor,
        encf: track.encf,
        secuenciaUtilizada: track.secuenciaUtilizada,
        codigo: String(track.codigo),
        estado: track.estado,
        mensajes: track.mensajes,
      });
    },
  );
}
