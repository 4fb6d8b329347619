/**
 * Test support for the portal's procedures: a database of its own, a local mail catcher, and a
 * "world" per test: a tenant with an owner, a developer, an accountant and one more member, a
 * support user viewing it, a signed-in user who belongs to no tenant, and a second tenant. Each
 * role's session is a real `portal_sessions` row checked by `validatePortalSession`, as on every
 * request; procedures are called through the server-side caller with a constructed context.
 */
import assert from 'node:assert/strict';
import { createHash, randomBytes, randomInt, randomUUID } from 'node:crypto';
import { TRPCError } from '@trpc/server';
import { seedMembership, seedTenant, seedUser, type MemberRole, type TDatabase } from '@ecf/db';
import { createProducerQueue } from '@ecf/db/job-queue';
import { openTestDatabase } from '@ecf/db/testing';
import { loadXsdValidators, OFFICIAL_XSD_DIRECTORY } from '@ecf/config';
import { startMailCatcher, type TMailCatcher } from '@ecf/mail-catcher';
import { createTaxauthClients } from '@ecf/taxauth-client';
import {
  createPartner,
  createCertificateKeyring,
  DEFAULT_SIGN_IN_POLICY,
  hashPassword,
  validatePortalSession,
  type TPortalMail,
  type TPortalSession,
} from '@ecf/services';
import {
  PORTAL_JOB_QUEUES,
  type TPortalDocuments,
  type TPortalWebhooks,
  type TTrpcContext,
} from '../server/trpc/context.ts';
import { createCallerFactory } from '../server/trpc/init.ts';
import { appRouter } from '../server/routers/root.ts';

export const ROLES = [
  'owner',
  'developer',
  'accountant',
  'support',
  'nonMember',
  'signedOut',
  // People who work for a Partner (issue 20): their own roles, no tenant.
  'partnerAdmin',
  'partnerDeveloper',
] as const;
export type TRole = (typeof ROLES)[number];

export type TPortalHarness = {
  database: TDatabase;
  catcher: TMailCatcher;
  mail: TPortalMail;
  /** A real pg-boss producer on the test database and the official XSDs (both started on first use). */
  documents: TPortalDocuments;
  /** Local receivers allowed (WEBHOOKS_ALLOW_PRIVATE_TARGETS on), the same producer's enqueue. */
  webhooks: TPortalWebhooks;
  close: () => Promise<void>;
};

/** The service's public address in tests (the URLs the certification page shows). */
export const TEST_PUBLIC_BASE_URL = 'https://ecf.example.test';

/** The API's cursor secret in tests. */
/** The HMAC key of the embedded certification links the tests open. */
export const TEST_EMBED_SECRET = 'portal-test-embed-secret-00000000000000000';
export const TEST_CURSOR_SECRET = 'portal-test-cursor-secret-0000000000000000';

export async function openPortalHarness(): Promise<TPortalHarness> {
  const context = await openTestDatabase();
  const catcher = await startMailCatcher({ smtpPort: 0, httpPort: 0 });
  const queue = createProducerQueue({
    databaseUrl: context.url,
    queues: PORTAL_JOB_QUEUES,
    onError: (error) => console.error('test job queue', error),
  });
  let xsd: ReturnType<TPortalDocuments['loadXsd']> | undefined;
  const documents: TPortalDocuments = {
    cursorSecret: TEST_CURSOR_SECRET,
    enqueue: queue.enqueue,
    loadXsd: () => (xsd ??= loadXsdValidators(OFFICIAL_XSD_DIRECTORY)),
    // Nothing listens on port 9: an ANECF sent from a test never reaches a tax authority (it stays built).
    taxauthClientFor: createTaxauthClients({
      baseUrls: { ecf: 'http://127.0.0.1:9', fc: 'http://127.0.0.1:9', status: 'http://127.0.0.1:9' },
      timeoutMs: 2000,
    }),
  };
  return {
    documents,
    webhooks: { allowPrivateTargets: true, enqueue: queue.enqueue, inboxBaseUrl: 'http://127.0.0.1:3000' },
    database: context.database,
    catcher,
    mail: {
      smtp: {
        transport: { host: '127.0.0.1', port: catcher.smtpPort, secure: false, ignoreTLS: true },
        from: 'Portal e-CF <no-reply@ecf.localhost>',
        timeoutMs: 5000,
      },
      portalPublicUrl: 'http://portal.test',
    },
    close: async () => {
      await queue.close();
      if (xsd !== undefined) (await xsd).dispose();
      await catcher.close();
      await context.close();
    },
  };
}

export const PASSWORD = 'una contraseña de prueba larga';
let passwordHash: Promise<string> | undefined;

export type TSeededUser = { id: string; email: string; membershipId: string | null };

async function seedPerson(
  database: TDatabase,
  input: { tenantId?: string; role?: MemberRole; isSupport?: boolean },
): Promise<TSeededUser> {
  passwordHash ??= hashPassword(PASSWORD);
  const user = await seedUser(database, {
    email: `persona-${randomUUID()}@example.com`,
    passwordHash: await passwordHash,
    isSupport: input.isSupport ?? false,
  });
  const membership =
    input.tenantId === undefined || input.role === undefined
      ? null
      : await seedMembership(database, { userId: user.id, tenantId: input.tenantId, role: input.role });
  return { id: user.id, email: user.email, membershipId: membership?.id ?? null };
}

/** A session row for the user working in `tenantId`, as validated on a request. */
export async function sessionOf(
  database: TDatabase,
  userId: string,
  tenantId: string | null,
): Promise<TPortalSession> {
  const row = await database.portalSession.create({
    data: { userId, activeTenantId: tenantId, expiresAt: new Date(Date.now() + 3600_000) },
  });
  const session = await validatePortalSession({ database, sessionId: row.id });
  if (session === null) throw new Error('the seeded session is not valid');
  return session;
}

/** A single-use token stored the way the services store it (its SHA-256). */
export function newToken(): { token: string; tokenHash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, tokenHash: createHash('sha256').update(token).digest('hex') };
}

export async function seedInvitation(
  database: TDatabase,
  input: { tenantId: string; invitedById: string; email?: string; role?: MemberRole },
) {
  const { token, tokenHash } = newToken();
  const invitation = await database.invitation.create({
    data: {
      tenantId: input.tenantId,
      email: input.email ?? `invitada-${randomUUID()}@example.com`,
      role: input.role ?? 'developer',
      tokenHash,
      invitedById: input.invitedById,
      expiresAt: new Date(Date.now() + 3600_000),
    },
  });
  return { invitation, token };
}

export type TWorld = Awaited<ReturnType<typeof seedWorld>>;

export async function seedWorld(database: TDatabase) {
  const tenant = await seedTenant(database);
  const otherTenant = await seedTenant(database);
  const users = {
    owner: await seedPerson(database, { tenantId: tenant.id, role: 'owner' }),
    developer: await seedPerson(database, { tenantId: tenant.id, role: 'developer' }),
    accountant: await seedPerson(database, { tenantId: tenant.id, role: 'accountant' }),
    support: await seedPerson(database, { isSupport: true }),
    nonMember: await seedPerson(database, {}),
    partnerAdmin: await seedPerson(database, {}),
    partnerDeveloper: await seedPerson(database, {}),
  };
  // The world's Partner: its two people, and an account of its own.
  const partner = await createPartner({
    database,
    input: { name: `Partner ${randomInt(0, 1_000_000)}`, paidStatus: 'paid' },
  });
  await database.partnerUser.createMany({
    data: [
      { userId: users.partnerAdmin.id, partnerId: partner.id, role: 'partner_admin' },
      { userId: users.partnerDeveloper.id, partnerId: partner.id, role: 'partner_developer' },
    ],
  });
  const otherOwner = await seedPerson(database, { tenantId: otherTenant.id, role: 'owner' });
  /** A member the owner can change or remove. */
  const target = await seedPerson(database, { tenantId: tenant.id, role: 'accountant' });
  const pending = await seedInvitation(database, { tenantId: tenant.id, invitedById: users.owner.id });
  const sessions: Record<TRole, TPortalSession | null> = {
    owner: await sessionOf(database, users.owner.id, tenant.id),
    developer: await sessionOf(database, users.developer.id, tenant.id),
    accountant: await sessionOf(database, users.accountant.id, tenant.id),
    support: await sessionOf(database, users.support.id, tenant.id),
    nonMember: await sessionOf(database, users.nonMember.id, null),
    signedOut: null,
    partnerAdmin: await sessionOf(database, users.partnerAdmin.id, null),
    partnerDeveloper: await sessionOf(database, users.partnerDeveloper.id, null),
  };
  return { tenant, otherTenant, otherOwner, users, target, pending, sessions, partner };
}

/** The master keyring of the certificates the tests upload (a fresh key per test process). */
export const TEST_CERTIFICATE_KEYRING = createCertificateKeyring({
  currentKey: randomBytes(32).toString('base64'),
});

/** The context a request with this session would get. */
export function contextOf(
  harness: TPortalHarness,
  session: TPortalSession | null,
  ip = '198.51.100.20',
): TTrpcContext {
  return {
    database: harness.database,
    session,
    request: { ip, userAgent: 'portal-test' },
    mail: harness.mail,
    signInPolicy: { ...DEFAULT_SIGN_IN_POLICY, ipMaxAttempts: 1_000_000 },
    apiUrl: 'http://127.0.0.1:3000',
    publicBaseUrl: TEST_PUBLIC_BASE_URL,
    now: () => new Date(),
    certificateKeyring: () => TEST_CERTIFICATE_KEYRING,
    documents: harness.documents,
    webhooks: harness.webhooks,
    partnerPlans: { quotas: { starter: 1000 }, graceDays: 7 },
    certificationEmbed: { secret: TEST_EMBED_SECRET, portalBaseUrl: 'http://127.0.0.1:3001' },
  };
}

const createCaller = createCallerFactory(appRouter);

export function callerOf(harness: TPortalHarness, session: TPortalSession | null) {
  return createCaller(contextOf(harness, session));
}

/** Calls a procedure by its dotted path ('members.changeRole'). */
export function callByPath(
  caller: ReturnType<typeof callerOf>,
  path: string,
  input: unknown,
): Promise<unknown> {
  const procedure = path
    .split('.')
    .reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], caller) as (
    input: unknown,
  ) => Promise<unknown>;
  return procedure(input);
}

/** `allowed` when the call succeeds, else the code of the TRPCError it is refused with. */
export async function codeOf(call: Promise<unknown>): Promise<string> {
  try {
    await call;
    return 'allowed';
  } catch (error) {
    assert.ok(error instanceof TRPCError, String(error));
    return error.code;
  }
}

/** The TRPCError a call is refused with; fails the test when the call succeeds or throws anything else. */
export async function trpcFailureOf(call: Promise<unknown>): Promise<TRPCError> {
  try {
    await call;
  } catch (error) {
    assert.ok(error instanceof TRPCError, String(error));
    return error;
  }
  assert.fail('expected a refusal');
}
