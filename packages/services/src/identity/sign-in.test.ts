import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  manualClock,
  openIdentityHarness,
  refusal,
  seedPortalUser,
  seedTenantWithOwner,
  type TIdentityHarness,
} from '../../test/identity-harness.ts';
import { DEFAULT_SIGN_IN_POLICY, type TSignInPolicy } from './sign-in-policy.ts';
import { signIn } from './sign-in.ts';
import { validatePortalSession } from './validate-portal-session.ts';

let harness: TIdentityHarness;
before(async () => {
  harness = await openIdentityHarness();
});
after(async () => {
  await harness.close();
});

/** A policy whose per-address limit never gets in the way of the account tests. */
const NO_IP_LIMIT: TSignInPolicy = { ...DEFAULT_SIGN_IN_POLICY, ipMaxAttempts: 1_000_000 };

function attempt(
  email: string,
  password: string,
  options: { now?: () => Date; ip?: string; policy?: TSignInPolicy } = {},
) {
  return signIn({
    database: harness.database,
    email,
    password,
    ip: options.ip ?? '198.51.100.7',
    userAgent: 'test',
    policy: options.policy ?? NO_IP_LIMIT,
    ...(options.now === undefined ? {} : { now: options.now }),
  });
}

/** What a refusal says, as the portal would show it. */
async function answerOf(promise: Promise<unknown>) {
  const error = await refusal(promise);
  return { code: error.code, details: error.details };
}

test('the right password opens a session in the first tenant; the e-mail is matched whatever its case', async () => {
  const { tenant, owner } = await seedTenantWithOwner(harness.database);
  const signedIn = await attempt(owner.user.email.toUpperCase(), owner.password);
  assert.equal(signedIn.user.id, owner.user.id);
  const session = await validatePortalSession({ database: harness.database, sessionId: signedIn.sessionId });
  assert.equal(session?.activeTenant?.id, tenant.id);
  assert.deepEqual(session?.principal, { kind: 'member', role: 'owner' });
  const audit = await harness.database.portalAuditEntry.findMany({ where: { actorUserId: owner.user.id } });
  assert.deepEqual(
    audit.map((entry) => [entry.action, entry.targetId, entry.ip]),
    [['session.signed_in', signedIn.sessionId, '198.51.100.7']],
  );
});

test('a wrong password and an unknown e-mail get the same answer', async () => {
  const { owner } = await seedTenantWithOwner(harness.database);
  const wrong = await answerOf(attempt(owner.user.email, 'not the password'));
  const unknown = await answerOf(attempt('nadie-aqui@example.com', 'not the password'));
  assert.deepEqual(wrong, { code: 'INVALID_CREDENTIALS', details: {} });
  assert.deepEqual(unknown, wrong);
});

test('from the 5th failure each one locks the account, for a doubling wait; while locked even the right password is refused', async () => {
  const clock = manualClock();
  const { owner } = await seedTenantWithOwner(harness.database);
  const { email } = owner.user;
  for (let failure = 1; failure <= 4; failure += 1)
    assert.equal((await answerOf(attempt(email, 'wrong', clock))).code, 'INVALID_CREDENTIALS');
  assert.deepEqual(await answerOf(attempt(email, 'wrong', clock)), {
    code: 'TOO_MANY_ATTEMPTS',
    details: { reason: 'account', retryAfterSeconds: 30 },
  });
  clock.advance(10_000);
  assert.deepEqual(await answerOf(attempt(email, owner.password, clock)), {
    code: 'TOO_MANY_ATTEMPTS',
    details: { reason: 'account', retryAfterSeconds: 20 },
  });
  clock.advance(21_000);
  // The 6th failure: 60 s; the 7th: 120 s.
  assert.deepEqual((await answerOf(attempt(email, 'wrong', clock))).details, {
    reason: 'account',
    retryAfterSeconds: 60,
  });
  clock.advance(61_000);
  assert.deepEqual((await answerOf(attempt(email, 'wrong', clock))).details, {
    reason: 'account',
    retryAfterSeconds: 120,
  });
  const stored = await harness.database.user.findUniqueOrThrow({ where: { id: owner.user.id } });
  assert.equal(stored.failedSignInCount, 7);
  clock.advance(121_000);
  await attempt(email, owner.password, clock);
  // A success starts the count over: the next failure is an ordinary one.
  assert.equal((await answerOf(attempt(email, 'wrong', clock))).code, 'INVALID_CREDENTIALS');
});

test('an e-mail without an account locks exactly like one with an account (no enumeration by lockout)', async () => {
  const { owner } = await seedTenantWithOwner(harness.database);
  const sequence = async (email: string) => {
    const clock = manualClock();
    const answers = [];
    for (let failure = 1; failure <= 6; failure += 1)
      answers.push(await answerOf(attempt(email, 'wrong', clock)));
    clock.advance(29_000);
    answers.push(await answerOf(attempt(email, 'wrong', clock)));
    clock.advance(2_000);
    answers.push(await answerOf(attempt(email, 'wrong', clock)));
    return answers;
  };
  const existing = await sequence(owner.user.email);
  const unknown = await sequence('ninguna-cuenta@example.com');
  assert.deepEqual(unknown, existing);
  assert.deepEqual(
    existing.map((answer) => answer.details.retryAfterSeconds ?? null),
    [null, null, null, null, 30, 30, 1, 60],
  );
});

test('a sign-in with an unknown e-mail takes about as long as one with a wrong password', async () => {
  const { owner } = await seedTenantWithOwner(harness.database);
  const median = async (email: string) => {
    const durations: number[] = [];
    for (let round = 0; round < 3; round += 1) {
      const started = performance.now();
      await refusal(attempt(email, `wrong-${round}`, { ip: `203.0.113.${round}` }));
      durations.push(performance.now() - started);
    }
    return durations.sort((a, b) => a - b)[1] ?? 0;
  };
  const existing = await median(owner.user.email);
  const unknown = await median('tampoco-existe@example.com');
  // Both run one argon2id verification (tens of milliseconds); without the dummy hash the unknown
  // e-mail would answer in a database round trip.
  assert.ok(
    unknown > existing / 3 && unknown < existing * 3,
    `existing ${existing} ms, unknown ${unknown} ms`,
  );
});

test('too many attempts from one address are refused, the right password included; other addresses are not', async () => {
  const { owner } = await seedTenantWithOwner(harness.database);
  const other = await seedPortalUser(harness.database);
  const policy: TSignInPolicy = { ...DEFAULT_SIGN_IN_POLICY, ipMaxAttempts: 3 };
  const ip = '192.0.2.77';
  await attempt(other.user.email, other.password, { ip, policy });
  await refusal(attempt(other.user.email, 'wrong', { ip, policy }));
  await refusal(attempt('x@example.com', 'wrong', { ip, policy }));
  const refused = await answerOf(attempt(owner.user.email, owner.password, { ip, policy }));
  assert.equal(refused.code, 'TOO_MANY_ATTEMPTS');
  assert.equal(refused.details.reason, 'ip');
  assert.ok(Number(refused.details.retryAfterSeconds) > 0);
  await attempt(owner.user.email, owner.password, { ip: '192.0.2.78', policy });
});
