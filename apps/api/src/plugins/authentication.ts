import type { FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { ENVIRONMENTS, type Environment, type TDatabase, type TScope } from '@ecf/db';
import { AppError, authenticateApiKey, type TApiKeyPrincipal } from '@ecf/services';

declare module 'fastify' {
  interface FastifyRequest {
    principal?: TApiKeyPrincipal;
  }
}

function isEnvironment(value: unknown): value is Environment {
  return typeof value === 'string' && (ENVIRONMENTS as readonly string[]).includes(value);
}

/**
 * preHandler of every `/{environment}/...` route: an unknown environment is 404, then the
 * `X-API-KEY` is checked for that environment and for one of `scopes`.
 */
export function requireApiKey(database: TDatabase, scopes: readonly TScope[]): preHandlerAsyncHookHandler {
  return async function authenticate(request: FastifyRequest, _reply: FastifyReply) {
    const environment = (request.params as { environment?: unknown }).environment;
    if (!isEnvironment(environment)) {
      throw new AppError('ROUTE_NOT_FOUND', `Unknown environment ${String(environment)}: use TesteCF, CerteCF or eCF.`, {
        details: { reason: 'unknown_environment' },
      });
    }
    const header = request.headers['x-api-key'];
    request.principal = await authenticateApiKey({
      database,
      key: Array.isArray(header) ? header[0] : header,
      environment,
      requiredScopes: scopes,
    });
  };
}

/** The authenticated principal of a request that went through `requireApiKey`. */
export function principalOf(request: FastifyRequest): TApiKeyPrincipal {
  if (!request.principal) throw new Error('route is missing the requireApiKey preHandler');
  return request.principal;
}
