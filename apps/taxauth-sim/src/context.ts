/** What every route of the simulator shares: configuration, store, validators, clock and the token check. */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { TXsdValidators } from '@ecf/fiscal-core';
import type { TCertificationPortal } from './certification/portal.ts';
import { bearerOf, isEnvironment, type TEnvironment } from './http.ts';
import type { TDirectoryEntry } from './options.ts';
import type { TStore } from './store.ts';
import { verifyToken, type TTokenClaims } from './tokens.ts';

export type TSimContext = {
  store: TStore;
  validators: TXsdValidators;
  tokenSecret: string;
  tokenTtlSeconds: number;
  processingDelayMs: number;
  loadTest: boolean;
  directory: TDirectoryEntry[];
  now: () => Date;
  /** The certification portal (README "Certification portal"). */
  certification: TCertificationPortal;
};

/**
 * The token check of every authenticated service: a missing, forged, expired, reset or
 * other-environment token gets ASP.NET's bare 401 with a `WWW-Authenticate` challenge.
 */
export async function authorize(
  context: TSimContext,
  request: FastifyRequest,
  reply: FastifyReply,
  environment: TEnvironment,
): Promise<TTokenClaims | undefined> {
  const token = bearerOf(request);
  const claims = token === undefined ? undefined : verifyToken(token, context.tokenSecret, context.now());
  const valid =
    claims !== undefined &&
    claims.environment === environment &&
    claims.epoch === (await context.store.tokenEpoch());
  if (valid) return claims;
  await reply
    .code(401)
    .header('www-authenticate', token === undefined ? 'Bearer' : 'Bearer error="invalid_token"')
    .send();
  return undefined;
}

/**
 * The environment of a tax-authority route (`/:environment/...`, any letter case), or undefined
 * after answering 404 (`callNotFound`) for an unknown one or one outside `environments` (a service
 * the tax authority publishes in some environments only).
 */
export function environmentOf(
  request: FastifyRequest<{ Params: { environment: string } }>,
  reply: FastifyReply,
  environments?: readonly TEnvironment[],
): TEnvironment | undefined {
  const environment = request.params.environment.toLowerCase();
  if (isEnvironment(environment) && (environments === undefined || environments.includes(environment)))
    return environment;
  reply.callNotFound();
  return undefined;
}

/**
 * The guard of every authenticated service: the route's environment (404 when unknown), then the
 * caller's token for it (ASP.NET's bare 401, see {@link authorize}). Undefined when the reply was sent.
 */
export async function authorizedCaller(
  context: TSimContext,
  request: FastifyRequest<{ Params: { environment: string } }>,
  reply: FastifyReply,
  environments?: readonly TEnvironment[],
): Promise<{ environment: TEnvironment; claims: TTokenClaims } | undefined> {
  const environment = environmentOf(request, reply, environments);
  if (environment === undefined) return undefined;
  const claims = await authorize(context, request, reply, environment);
  return claims === undefined ? undefined : { environment, claims };
}
