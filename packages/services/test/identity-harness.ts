/**
 * Test support for the identity and audit domains: a database with a local mail catcher, portal
 * users seeded with real argon2id hashes, a clock the test moves, and the token of an e-mailed link.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { seedMembership, seedTenant, seedUser, type MemberRole, type TDatabase } from '@ecf/db';
import { openTestDatabase } from '@ecf/db/testing';
import { startMailCatcher, type TCaughtMessage, type TMailCatcher } from '@ecf/mail-catcher';
import type { TPortalMail } from '../src/identity/index.ts';
import { hashPassword } from '../src/identity/index.ts';
import { AppError } from '../src/shared/errors.ts';

export type TIdentityHarness = {
  database: TDatabase;
  catcher: TMailCatcher;
  mail: TPortalMail;
  close: () => Promise<void>;
};

export const PORTAL_URL = 'http://portal.test:3001';

export async function openIdentityHarness(): Promise<TIdentityHarness> {
  const context = await openTestDatabase();
  const catcher = await startMailCatcher({ smtpPort: 0, httpPort: 0 });
  return {
    database: context.database,
    catcher,
    mail: {
      smtp: {
        transport: { host: '127.0.0.1', port: catcher.smtpPort, secure: false, ignoreTLS: true },
        from: 'Portal e-CF <no-reply@ecf.localhost>',
        timeoutMs: 5000,
      },
      portalPublicUrl: PORTAL_URL,
    },
    close: async () => {
      await catcher.close();
      await context.close();
    },
  };
}

const hashes = new Map<string, Promise<string>>();
/** argon2id hashes cost ~30 ms: one per distinct password per test file. */
function hashOnce(password: string): Promise<string> {
  let found = hashes.get(password);
  if (found === undefined) {
    found = hashPassword(password);
    hashes.set(password, found);
  }
  return found;
}

export const PASSWORD = 'una contraseña larga de prueba';

/** A user (with PASSWORD unless told), optionally a member of a tenant with a role. */
export async function seedPortalUser(
  database: TDatabase,
  input: {
    tenantId?: string;
    role?: MemberRole;
    isSupport?: boolean;
    email?: string;
    password?: string;
  } = {},
) {
  const email = input.email ?? `persona-${randomUUID()}@example.com`;
  const user = await seedUser(database, {
    email,
    passwordHash: await hashOnce(input.password ?? PASSWORD),
    isSupport: input.isSupport ?? false,
  });
  const membership =
    input.tenantId === undefined
      ? null
      : await seedMembership(database, {
          userId: user.id,
          tenantId: input.tenantId,
          role: input.role ?? 'owner',
        });
  return { user, membership, password: input.password ?? PASSWORD };
}

/** A tenant with an owner. */
export async function seedTenantWithOwner(database: TDatabase) {
  const tenant = await seedTenant(database);
  const owner = await seedPortalUser(database, { tenantId: tenant.id, role: 'owner' });
  return { tenant, owner };
}

/** A clock the test moves by hand. */
export function manualClock(start = new Date('2026-11-20T12:00:00Z')) {
  let current = start.getTime();
  return {
    now: () => new Date(current),
    advance: (milliseconds: number) => {
      current += milliseconds;
    },
  };
}

/** The `token` query parameter of the first portal link in a message. */
export function tokenOf(message: TCaughtMessage, path: string): string {
  const link = (message.text ?? '').split(/\s+/).find((word) => word.startsWith(`${PORTAL_URL}${path}?`));
  assert.ok(link, `no ${path} link in:\n${message.text ?? ''}`);
  const token = new URL(link).searchParams.get('token');
  assert.ok(token);
  return token;
}

/** The AppError a promise rejects with (fails when it resolves or throws something else). */
export async function refusal(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof AppError, `not an AppError: ${String(error)}`);
    return error;
  }
  assert.fail('expected a refusal');
}
