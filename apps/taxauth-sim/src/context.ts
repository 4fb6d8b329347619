/** What every route of the simulator shares: configuration, store, validators, clock and the token check. */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { TXsdValidators } from '@ecf/fiscal-core';
import { bearerOf, type TEnvironment } from './http.ts';
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
