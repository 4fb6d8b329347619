/**
 * The procedure builders every portal procedure starts from. Tenant scoping and permissions are
 * decided HERE, once (STYLE 5), from the permission table of @ecf/services:
 *
 * - `publicProcedure`: anyone (sign-in helpers, invitation and reset links). Still same-origin
 *   checked for mutations by the route handler.
 * - `authedProcedure`: a valid portal session (UNAUTHORIZED otherwise): `ctx.user`, `ctx.session`.
 * - `tenantProcedure(capability)`: the session's ACTIVE tenant, which is always one of the user's
 *   memberships (checked in the database on this request) or, for support, the tenant support
 *   chose. `ctx.tenant.id` is the only tenant a procedure may touch: it never comes from the input.
 *   FORBIDDEN without an active tenant (`data.appCode` NO_ACTIVE_TENANT) or without the capability
 *   (`data.appCode` FORBIDDEN, `data.details.capability`).
 *   Use-cases answer NOT_FOUND for another tenant's ids, so existence is never revealed. Every call
 *   by support is written to the tenant's audit log (`support.viewed`) before it runs; the same
 *   call (procedure and input) again within 5 minutes, a live page's refresh, is not written twice.
 * - `supportProcedure(capability)`: operator staff only (FORBIDDEN otherwise), across tenants. A
 *   call that reads a tenant's data must say so with `ctx.recordSupportView(tenantId, detail)`
 *   for each tenant it returns data of (one audit entry each, in that tenant's log); a named action
 *   records itself with `ctx.recordSupportAction(...)`.
 */
import { TRPCError } from '@trpc/server';
import {
  AppError,
  appendAuditEntry,
  AUDIT_ACTIONS,
  hasCapability,
  hasPartnerCapability,
  recordSupportView,
  SUPPORT_VIEW_REPEAT_WINDOW_MS,
  type TCapability,
  type TPartnerCapability,
  type TPortalActor,
  type TPortalSession,
} from '@ecf/services';
import { toTrpcError } from './app-errors.ts';
import { t } from './init.ts';

/** Maps services' AppErrors to tRPC errors for every procedure. */
const mapAppErrors = t.middleware(async ({ next }) => {
  const result = await next();
  if (!result.ok) {
    const mapped = toTrpcError(result.error.cause);
    if (mapped instanceof TRPCError) throw mapped;
  }
  return result;
});

export const publicProcedure = t.procedure.use(mapAppErrors);

export const authedProcedure = publicProcedure.use(({ ctx, next }) => {
  if (ctx.session === null) throw new AppError('SESSION_INVALID', 'Sign in first.');
  const session: TPortalSession = ctx.session;
  return next({ ctx: { session, user: session.user } });
});

/** The input as it may go into an audit entry: bounded, and never a field that looks like a secret. */
export function auditableInput(input: unknown): unknown {
  if (input === undefined || input === null) return undefined;
  const text = JSON.stringify(input, (key, value: unknown) =>
    /password|token|secret|key$/i.test(key) ? '[REDACTED]' : value,
  );
  if (text.length <= 2000) return JSON.parse(text) as unknown;
  // Cut between characters, never inside a surrogate pair: half of one is text PostgreSQL refuses.
  const end = /[\uD800-\uDBFF]/.test(text.charAt(1999)) ? 1999 : 2000;
  return { truncated: text.slice(0, end) };
}

export function tenantProcedure(capability: TCapability) {
  return authedProcedure.use(async ({ ctx, next, path, getRawInput }) => {
    const { session } = ctx;
    const tenant = session.activeTenant;
    const principal = session.principal;
    if (tenant === null || principal === null)
      throw new AppError('NO_ACTIVE_TENANT', 'Choose an account first.');
    if (!hasCapability(principal, capability))
      throw new AppError('FORBIDDEN', `This role may not do ${capability}.`, { details: { capability } });
    if (principal.kind === 'support')
      await recordSupportView({
        database: ctx.database,
        tenantId: tenant.id,
        supportUserId: session.user.id,
        what: path,
        input: auditableInput(await getRawInput()),
        ip: ctx.request.ip,
        now: ctx.now,
        repeatWindowMs: SUPPORT_VIEW_REPEAT_WINDOW_MS,
      });
    const actor: TPortalActor = { userId: session.user.id, principal, ip: ctx.request.ip };
    return next({ ctx: { tenant, principal, actor } });
  });
}

export function supportProcedure(capability: TCapability) {
  return authedProcedure.use(({ ctx, next }) => {
    if (!ctx.session.user.isSupport || !hasCapability({ kind: 'support' }, capability))
      throw new AppError('FORBIDDEN', 'Support staff only.', { details: { capability } });
    const supportUserId = ctx.session.user.id;
    return next({
      ctx: {
        actor: {
          userId: supportUserId,
          principal: { kind: 'support' },
          ip: ctx.request.ip,
        } satisfies TPortalActor,
        /** Writes `support.viewed` to the tenant's audit log: call it for each tenant whose data is returned. */
        recordSupportView: (tenantId: string, what: string, input?: unknown) =>
          recordSupportView({
            database: ctx.database,
            tenantId,
            supportUserId,
            what,
            input: auditableInput(input),
            ip: ctx.request.ip,
            now: ctx.now,
            repeatWindowMs: SUPPORT_VIEW_REPEAT_WINDOW_MS,
          }),
        /** Writes `support.acted` to the tenant's audit log (a named support action). */
        recordSupportAction: (tenantId: string, action: string, data: Record<string, unknown> = {}) =>
          appendAuditEntry({
            database: ctx.database,
            entry: {
              tenantId,
              actorUserId: supportUserId,
              action: AUDIT_ACTIONS.SUPPORT_ACTED,
              targetType: 'support-action',
              targetId: action,
              data,
              ip: ctx.request.ip,
              at: ctx.now(),
            },
          }),
      },
    });
  });
}

/**
 * `partnerProcedure(capability)` (issue 20): a user who works for a Partner (`partner_users`,
 * checked in the database on this request), with a role holding the capability of the Partner
 * table (FORBIDDEN otherwise, `data.details.capability`). `ctx.partner.id` is the only Partner a
 * procedure may touch: it never comes from the input.
 */
export function partnerProcedure(capability: TPartnerCapability) {
  return authedProcedure.use(({ ctx, next }) => {
    const partner = ctx.session.partner;
    if (partner === null)
      throw new AppError('FORBIDDEN', 'This page is for people who work for a Partner.', {
        details: { capability },
      });
    if (!hasPartnerCapability(partner.role, capability))
      throw new AppError('FORBIDDEN', `This role may not do ${capability}.`, { details: { capability } });
    return next({ ctx: { partner } });
  });
}
