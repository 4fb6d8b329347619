import type { FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { ENVIRONMENTS, type Environment, type TDatabase, type TScope } from '@ecf/db';
import { AppError, authenticateApiRequest, type TApiRequestPrincipal } from '@ecf/services';

declare module 'fastify' {
  interface FastifyRequest {
    principal?: TApiRequestPrincipal;
  }
}

function isEnvironment(value: unknown): value is Environment {
  return typeof value === 'string' && (ENVIRONMENTS as readonly string[]).includes(value);
}

/** What authentication needs: the database and, when rate limiting is on, requests per minute per plan. */
export type TAuthenticationContext = { database: TDatabase; requestsPerMinute?: (plan: string) => number };

/**
 * preHandler of every `/{environment}/...` route: an unknown environment is 404, then the
 * `X-API-KEY` is checked for that environment and for one of `scopes`, then the key's request is
 * counted against its plan's rate limit (429 `RATE_LIMIT_EXCEEDED`).
 */
export function requireApiKey(
  context: TAuthenticationContext,
  scopes: readonly TScope[],
): preHandlerAsyncHookHandler {
  const { database } = context;
  return async function authenticate(request: FastifyRequest, _reply: FastifyReply) {
    const environment = (request.params as { environment?: unknown }).environment;
    if (!isEnvironment(environment)) {
      throw new AppError(
        'ROUTE_NOT_FOUND',
        `Unknown environment ${String(environment)}: use TesteCF, CerteCF or eCF.`,
        {
          details: { reason: 'unknown_environment' },
        },
      );
    }
    const header = request.headers['x-api-key'];
    // Key, tenant and the rate-limit count in one round trip.
    request.principal = await authenticateApiRequest({
      database,
      key: Array.isArray(header) ? header[0] : header,
      environment,
      requiredScopes: scopes,
      requestsPerMinute: context.requestsPerMinute,
    });
  };
}

/** The authenticated principal of a request that went through `requireApiKey`. */
export function principalOf(request: FastifyRequest): TApiRequestPrincipal {
  if (!request.principal) throw new Error('route is missing the requireApiKey preHandler');
  return request.principal;
}
