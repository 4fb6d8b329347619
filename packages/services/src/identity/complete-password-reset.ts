import type { TDatabase } from '@ecf/db';
import { consumePasswordReset, findPasswordReset } from '../persistence/index.ts';
import { AppError } from '../shared/errors.ts';
import { AUDIT_ACTIONS } from '../audit/index.ts';
import { hashPassword } from './passwords.ts';
import { hashSecretToken } from './tokens.ts';

/**
 * Sets a new password through a reset link, once: PASSWORD_RESET_INVALID for an unknown or used
 * link, PASSWORD_RESET_EXPIRED after its hour. The password, the end of every session of the user
 * (sign-out everywhere: whoever knew the old password is out), the end of the lock and the audit
 * entry commit together.
 */
export async function completePasswordReset(options: {
  database: TDatabase;
  token: string;
  password: string;
  ip?: string | null;
  now?: () => Date;
}): Promise<{ userId: string; sessionsRevoked: number }> {
  const { database } = options;
  const at = (options.now ?? (() => new Date()))();
  const tokenHash = hashSecretToken(options.token);
  const passwordHash = await hashPassword(options.password);
  const done = await consumePasswordReset(database, {
    tokenHash,
    passwordHash,
    at,
    audit: { action: AUDIT_ACTIONS.PASSWORD_RESET, ip: options.ip ?? null },
  });
  if (done !== null) return done;
  const reset = await findPasswordReset(database, tokenHash);
  if (reset !== null && reset.usedAt === null && reset.expiresAt <= at)
    throw new AppError('PASSWORD_RESET_EXPIRED', 'This password reset link has expired.');
  throw new AppError(
    'PASSWORD_RESET_INVALID',
    'This password reset link is not valid (or was already used).',
  );
}
