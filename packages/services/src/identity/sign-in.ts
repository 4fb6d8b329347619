import type { TDatabase } from '@ecf/db';
import {
  appendAuditEntryRow,
  clearUserSignInFailures,
  countSignInAttempt,
  findPhantomSignInFailures,
  findUserByEmail,
  findUserTenantRows,
  insertPortalSession,
  recordPhantomSignInFailure,
  recordUserSignInFailure,
} from '../persistence/index.ts';
import { AppError } from '../shared/errors.ts';
import { AUDIT_ACTIONS } from '../audit/index.ts';
import { dummyPasswordHash, verifyPassword } from './passwords.ts';
import {
  DEFAULT_SESSION_TTL_SECONDS,
  DEFAULT_SIGN_IN_POLICY,
  lockSecondsAfter,
  lockSecondsAfterFailures,
  type TSignInPolicy,
} from './sign-in-policy.ts';
import { hashSecretToken, normalizeEmail } from './tokens.ts';

/** Who signed in, and the session the portal's JWT will name. */
export type TSignedIn = {
  sessionId: string;
  expiresAt: Date;
  user: { id: string; email: string; name: string; isSupport: boolean };
};

function tooManyAttempts(reason: 'account' | 'ip', until: Date, now: Date): AppError {
  const retryAfterSeconds = Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 1000));
  return new AppError(
    'TOO_MANY_ATTEMPTS',
    reason === 'ip'
      ? 'Too many sign-in attempts from this address; try again later.'
      : 'Too many failed sign-ins with this e-mail; try again later.',
    { details: { reason, retryAfterSeconds }, headers: { 'Retry-After': String(retryAfterSeconds) } },
  );
}

/**
 * Counts one attempt from a client address in its fixed window (sign-ins and reset requests have
 * separate buckets); throws TOO_MANY_ATTEMPTS (`ip`) past the policy's limit.
 */
export async function assertClientAddressAllowed(options: {
  database: TDatabase;
  ip: string | null;
  purpose: 'sign-in' | 'password-reset';
  policy: TSignInPolicy;
  now: Date;
}): Promise<void> {
  if (options.ip === null || options.ip === '') return;
  const windowMs = options.policy.ipWindowSeconds * 1000;
  const windowStart = new Date(Math.floor(options.now.getTime() / windowMs) * windowMs);
  const windowEnd = new Date(windowStart.getTime() + windowMs);
  const count = await countSignInAttempt(options.database, {
    bucket: `portal-${options.purpose}-ip:${options.ip}`,
    windowStart,
    expiresAt: windowEnd,
  });
  if (count > options.policy.ipMaxAttempts) throw tooManyAttempts('ip', windowEnd, options.now);
}

/**
 * Signs a portal user in with e-mail and password and opens a session (its id is what the
 * portal's JWT carries). Refusals never say whether the e-mail has an account:
 * - INVALID_CREDENTIALS for a wrong password and for an unknown e-mail alike, after the same work
 *   (an unknown e-mail's password is checked against a dummy argon2id hash);
 * - TOO_MANY_ATTEMPTS `account` from the policy's 5th consecutive failure of an e-mail, with a lock
 *   that doubles with each further failure, counted the same way for e-mails without an account;
 *   while locked nothing is checked, a right password included;
 * - TOO_MANY_ATTEMPTS `ip` past the attempts allowed from one address per window.
 * A success clears the count and starts in the user's first tenant (support: none).
 */
export async function signIn(options: {
  database: TDatabase;
  email: string;
  password: string;
  ip: string | null;
  userAgent: string | null;
  policy?: TSignInPolicy;
  sessionTtlSeconds?: number;
  now?: () => Date;
}): Promise<TSignedIn> {
  const { database } = options;
  const policy = options.policy ?? DEFAULT_SIGN_IN_POLICY;
  const now = (options.now ?? (() => new Date()))();
  const email = normalizeEmail(options.email);
  await assertClientAddressAllowed({ database, ip: options.ip, purpose: 'sign-in', policy, now });

  const user = await findUserByEmail(database, email);
  const phantomBucket = `portal-sign-in-email:${hashSecretToken(email)}`;
  const keepSeconds = policy.unknownEmailKeepSeconds;
  let lockedUntil: Date | null;
  if (user !== null) lockedUntil = user.lockedUntil;
  else {
    const phantom = await findPhantomSignInFailures(database, { bucket: phantomBucket, keepSeconds });
    const lockSeconds = lockSecondsAfter(policy, phantom.failedSignInCount);
    lockedUntil =
      phantom.lastFailureAt === null || lockSeconds === 0
        ? null
        : new Date(phantom.lastFailureAt.getTime() + lockSeconds * 1000);
  }
  if (lockedUntil !== null && lockedUntil > now) throw tooManyAttempts('account', lockedUntil, now);

  const matches =
    user === null
      ? await verifyPassword(await dummyPasswordHash(), options.password).then(() => false)
      : await verifyPassword(user.passwordHash, options.password);
  if (user === null || !matches) {
    const failure =
      user === null
        ? await recordPhantomSignInFailure(database, { bucket: phantomBucket, at: now, keepSeconds }).then(
            ({ failedSignInCount }) => ({
              failedSignInCount,
              lockSeconds: lockSecondsAfter(policy, failedSignInCount),
            }),
          )
        : await recordUserSignInFailure(database, {
            userId: user.id,
            at: now,
            lockSeconds: lockSecondsAfterFailures(policy),
          }).then(({ failedSignInCount }) => ({
            failedSignInCount,
            lockSeconds: lockSecondsAfter(policy, failedSignInCount),
          }));
    if (user !== null)
      await appendAuditEntryRow(database, {
        tenantId: null,
        actorUserId: user.id,
        action: AUDIT_ACTIONS.SIGN_IN_FAILED,
        targetType: 'user',
        targetId: user.id,
        data: { failedSignInCount: failure.failedSignInCount, lockSeconds: failure.lockSeconds },
        ip: options.ip,
        at: now,
      });
    if (failure.lockSeconds > 0)
      throw tooManyAttempts('account', new Date(now.getTime() + failure.lockSeconds * 1000), now);
    throw new AppError('INVALID_CREDENTIALS', 'The e-mail or the password is not right.');
  }

  const found = user;
  await clearUserSignInFailures(database, found.id);
  const tenants = found.isSupport ? [] : await findUserTenantRows(database, found.id);
  const session = await insertPortalSession(database, {
    userId: found.id,
    activeTenantId: tenants[0]?.tenantId ?? null,
    at: now,
    expiresAt: new Date(now.getTime() + (options.sessionTtlSeconds ?? DEFAULT_SESSION_TTL_SECONDS) * 1000),
    ip: options.ip,
    userAgent: options.userAgent === null ? null : options.userAgent.slice(0, 512),
  });
  await appendAuditEntryRow(database, {
    tenantId: null,
    actorUserId: found.id,
    action: AUDIT_ACTIONS.SIGNED_IN,
    targetType: 'session',
    targetId: session.id,
    ip: options.ip,
    at: now,
  });
  return {
    sessionId: session.id,
    expiresAt: session.expiresAt,
    user: { id: found.id, email: found.email, name: found.name, isSupport: found.isSupport },
  };
}
