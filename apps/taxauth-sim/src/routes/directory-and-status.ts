/**
 * The directory of electronic receivers (FACTS §1.10), read from configuration (each entry in the
 * environments it names) plus, in `ecf`, the taxpayers whose certification finished, and the
 * status host (§1.12), whose availability reflects the injected faults.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { authorizedCaller, type TSimContext } from '../context.ts';
import { ENVIRONMENTS, answer, queryValue, validationProblem, type TEnvironment } from '../http.ts';
import type { TDirectoryEntry } from '../options.ts';
import type { TFaultKind } from '../store.ts';

type TEnvParams = { environment: string };

function entryOf(entry: TDirectoryEntry) {
  return {
    nombre: entry.name ?? null,
    rnc: entry.rnc,
    urlRecepcion: entry.receptionUrl,
    urlAceptacion: entry.commercialApprovalUrl ?? null,
    urlOpcional: entry.authenticationUrl ?? null,
  };
}

const SERVICES: ReadonlyArray<{ service: string; name: string }> = [
  { service: 'autenticacion', name: 'Autenticación' },
  { service: 'recepcion', name: 'Recepción' },
  { service: 'consultaresultado', name: 'Consulta Resultado' },
  { service: 'consultaestado', name: 'Consulta Estado' },
  { service: 'consultadirectorio', name: 'Consulta Directorio' },
  { service: 'consultatrackids', name: 'Consulta TrackIds' },
  { service: 'aprobacioncomercial', name: 'Aprobación Comercial' },
  { service: 'anulacionrangos', name: 'Anulación Rangos' },
  { service: 'recepcionfc', name: 'Recepción FC' },
];

const ENVIRONMENT_NAMES: Readonly<Record<TEnvironment, string>> = {
  testecf: 'PreCertificacion',
  certecf: 'Certificacion',
  ecf: 'Produccion',
};
/** `verificarestado?ambiente=`: 1 PreCertificación, 2 Producción, 3 Certificación. */
const ENVIRONMENT_NUMBERS: Readonly<Record<string, TEnvironment>> = {
  '1': 'testecf',
  '2': 'ecf',
  '3': 'certecf',
};
const OUTAGE_FAULTS: TFaultKind[] = ['connection_reset', 'http_503', 'timeout', 'auth_down'];

/** The status host wants `Authorization: Apikey …` (any key is accepted). */
function hasApiKey(request: FastifyRequest): boolean {
  return /^apikey\s+\S+/i.test(request.headers.authorization ?? '');
}

export function registerDirectoryAndStatusRoutes(app: FastifyInstance, context: TSimContext): void {
  app.get<{ Params: TEnvParams }>(
    '/:environment/consultadirectorio/api/consultas/listado',
    async (request, reply) => {
      const caller = await authorizedCaller(context, request, reply);
      if (caller === undefined) return reply;
      const rnc = queryValue(request, 'rnc');
      const entries = (await context.certification.directoryOf(caller.environment, context.directory)).filter(
        (entry) => rnc === undefined || entry.rnc === rnc,
      );
      return answer(request, reply, 200, 'DirectorioModel', entries.map(entryOf));
    },
  );

  app.get<{ Params: TEnvParams }>(
    '/:environment/consultadirectorio/api/consultas/obtenerdirectorioporrnc',
    async (request, reply) => {
      const caller = await authorizedCaller(context, request, reply);
      if (caller === undefined) return reply;
      const rnc = queryValue(request, 'rnc');
      if (rnc === undefined) return validationProblem(reply, { RNC: ['El campo RNC es requerido.'] });
      const entries = await context.certification.directoryOf(caller.environment, context.directory);
      return answer(
        request,
        reply,
        200,
        'DirectorioModel',
        entries.filter((entry) => entry.rnc === rnc).map(entryOf),
      );
    },
  );

  async function isDown(environment: TEnvironment, service: string): Promise<boolean> {
    const faults = await context.store.matchingFaults(environment, service, OUTAGE_FAULTS);
    return faults.some((fault) => fault.fault !== 'auth_down' || service === 'autenticacion');
  }

  const statusRoutes = (prefix: string): void => {
    app.get(`${prefix}/api/estatusservicios/obtenerestatus`, async (request, reply: FastifyReply) => {
      if (!hasApiKey(request)) return reply.code(401).send();
      const list = [];
      for (const environment of ENVIRONMENTS) {
        for (const { service, name } of SERVICES) {
          list.push({
            servicio: name,
            estatus: (await isDown(environment, service)) ? 'No Disponible' : 'Disponible',
            ambiente: ENVIRONMENT_NAMES[environment],
          });
        }
      }
      return answer(request, reply, 200, 'EstatusServicio', list);
    });
    app.get(
      `${prefix}/api/estatusservicios/obtenerventanasmantenimiento`,
      async (request, reply: FastifyReply) => {
        if (!hasApiKey(request)) return reply.code(401).send();
        return answer(request, reply, 200, 'VentanasMantenimiento', { ventanaMantenimientos: [] });
      },
    );
    app.get(`${prefix}/api/estatusservicios/verificarestado`, async (request, reply: FastifyReply) => {
      if (!hasApiKey(request)) return reply.code(401).send();
      const environment = ENVIRONMENT_NUMBERS[queryValue(request, 'ambiente') ?? ''];
      if (environment === undefined)
        return validationProblem(reply, { ambiente: ['El campo ambiente debe ser 1, 2 o 3.'] });
      let down = false;
      for (const { service } of SERVICES) down ||= await isDown(environment, service);
      return answer(request, reply, 200, 'VerificarEstado', {
        estado: down ? 'No Disponible' : 'Disponible',
      });
    });
  };
  statusRoutes('');
  statusRoutes('/:environment');
}
