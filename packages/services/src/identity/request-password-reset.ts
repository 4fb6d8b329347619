import type { TDatabase } from '@ecf/db';
import { findUserByEmail, insertPasswordReset } from '../persistence/index.ts';
import { assertClientAddressAllowed } from './sign-in.ts';
import {
  composePasswordResetEmail,
  portalLink,
  sendPortalEmail,
  type TPortalMail,
} from './identity-emails.ts';
import { DEFAULT_SIGN_IN_POLICY, PASSWORD_RESET_TTL_SECONDS, type TSignInPolicy } from './sign-in-policy.ts';
import { createSecretToken, hashSecretToken, normalizeEmail } from './tokens.ts';

/**
 * "Forgot my password": when the e-mail has an account, a single-use link valid one hour
 * (`{portal}/reset-password?token=...`) is stored (its SHA-256) and e-mailed. The answer is the same
 * either way and does not wait for the SMTP exchange (which would take measurably longer for an
 * existing account): the message leaves in `delivery`, which the caller must not await before
 * answering (the portal logs its failure; tests await it). Limited per client address like sign-in.
 */
export async function requestPasswordReset(options: {
  database: TDatabase;
  email: string;
  mail: TPortalMail;
  ip?: string | null;
  policy?: TSignInPolicy;
  now?: () => Date;
}): Promise<{ delivery: Promise<void> }> {
  const { database } = options;
  const at = (options.now ?? (() => new Date()))();
  await assertClientAddressAllowed({
    database,
    ip: options.ip ?? null,
    purpose: 'password-reset',
    policy: options.policy ?? DEFAULT_SIGN_IN_POLICY,
    now: at,
  });
  const user = await findUserByEmail(database, normalizeEmail(options.email));
  if (user === null) return { delivery: Promise.resolve() };
  const token = createSecretToken();
  const expiresAt = new Date(at.getTime() + PASSWORD_RESET_TTL_SECONDS * 1000);
  await insertPasswordReset(database, { userId: user.id, tokenHash: hashSecretToken(token), at, expiresAt });
  const message = composePasswordResetEmail({
    name: user.name,
    link: portalLink(options.mail, '/reset-password', token),
    expiresAt,
  });
  return { delivery: sendPortalEmail(options.mail, { to: user.email, ...message }) };
}
