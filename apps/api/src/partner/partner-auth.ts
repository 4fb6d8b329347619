import type { FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import type { z } from 'zod';
import type { TDatabase } from '@ecf/db';
import {
  AppError,
  authenticatePartnerRequest,
  type TPartnerPrincipal,
  type TPartnerRateLimits,
} from '@ecf/services';
import { type TPartnerPermission } from '@ecf/contract';
import { PARTNER_TEXT_LIMITS, type TPartnerRouteContract } from '@ecf/contract';

declare module 'fastify' {
  interface FastifyRequest {
    partnerPrincipal?: TPartnerPrincipal;
  }
}

export type TPartnerAuthContext = { database: TDatabase; limits: TPartnerRateLimits };

/**
 * Parses a part of a Partner request with its closed schema: anything that does not match (an
 * unknown property, a wrong type, a text over its limit, an identifier that is not a UUID) is 400
 * `INVALID_PARTNER_PAYLOAD` with every issue's path (`details.path` the first one; params and
 * query paths are prefixed `path.` and `query.`).
 */
export function parsePartner<T extends z.ZodType>(
  schema: T,
  value: unknown,
  where: 'body' | 'query' | 'path' | 'headers',
): z.infer<T> {
  const parsed = schema.safeParse(value ?? (where === 'body' ? undefined : {}));
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.flatMap((issue) => {
    const base = [where === 'body' ? '' : where, ...issue.path.map(String)].filter((part) => part !== '');
    // An unknown property names itself: `profile.colour`, not `profile`.
    const keys = issue.code === 'unrecognized_keys' ? issue.keys : [undefined];
    return keys.map((key) => ({
      path: [...base, ...(key === undefined ? [] : [key])].join('.'),
      code: issue.code,
      message: issue.message,
    }));
  });
  const first = issues[0];
  throw new AppError(
    'INVALID_PARTNER_PAYLOAD',
    first === undefined
      ? 'The request does not match the contract.'
      : `${first.path || where}: ${first.message}`,
    { details: { path: first?.path ?? '', issues } },
  );
}

/** A UUID path segment, else 400 `INVALID_PARTNER_PAYLOAD` (identifiers are opaque UUIDs). */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The permission a request of `route` needs (preflight needs documents:validate, emission documents:create). */
export function permissionOf(route: TPartnerRouteContract, query: unknown): TPartnerPermission {
  const when = route.permissionWhen;
  if (when !== undefined) {
    const values = (query ?? {}) as Record<string, unknown>;
    if (Object.entries(when.query).every(([name, value]) => values[name] === value)) return when.permission;
  }
  return route.permission;
}

/**
 * preHandler of every Partner route: the correlation id and the path's identifiers are checked
 * (400 `INVALID_PARTNER_PAYLOAD`), then the key, the permission of the route and the rate limits,
 * and the fiscal account of the path (`authenticatePartnerRequest`: one statement).
 */
export function requirePartnerKey(
  context: TPartnerAuthContext,
  route: TPartnerRouteContract,
): preHandlerAsyncHookHandler {
  return async function authenticate(request: FastifyRequest) {
    const correlation = request.headers['x-correlation-id'];
    if (typeof correlation === 'string' && correlation.length > PARTNER_TEXT_LIMITS.correlationId)
      throw new AppError(
        'INVALID_PARTNER_PAYLOAD',
        `x-correlation-id has at most ${PARTNER_TEXT_LIMITS.correlationId} characters.`,
        {
          details: {
            path: 'headers.x-correlation-id',
            issues: [
              { path: 'headers.x-correlation-id', code: 'too_big', message: 'at most 200 characters' },
            ],
          },
        },
      );
    if (route.params !== undefined) parsePartner(route.params, request.params, 'path');
    const params = (request.params ?? {}) as Record<string, string | undefined>;
    const accountId = route.account ? (params['id'] ?? '') : null;
    if (accountId !== null && !UUID.test(accountId))
      throw new AppError('INVALID_PARTNER_PAYLOAD', 'path.id: not a UUID', {
        details: {
          path: 'path.id',
          issues: [{ path: 'path.id', code: 'invalid_format', message: 'not a UUID' }],
        },
      });
    const header = request.headers['x-partner-key'];
    request.partnerPrincipal = await authenticatePartnerRequest({
      database: context.database,
      key: Array.isArray(header) ? header[0] : header,
      ip: request.ip,
      permission: permissionOf(route, request.query),
      accountId: accountId?.toLowerCase() ?? null,
      limits: context.limits,
    });
  };
}

/** The principal of a request that went through `requirePartnerKey`. */
export function partnerPrincipalOf(request: FastifyRequest): TPartnerPrincipal {
  if (!request.partnerPrincipal) throw new Error('route is missing the requirePartnerKey preHandler');
  return request.partnerPrincipal;
}

/** The fiscal account of the path (routes with `account: true`). */
export function accountOf(request: FastifyRequest) {
  const account = partnerPrincipalOf(request).account;
  if (account === null) throw new Error('route names no fiscal account');
  return account;
}
