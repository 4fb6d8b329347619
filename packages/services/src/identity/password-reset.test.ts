import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  manualClock,
  openIdentityHarness,
  refusal,
  seedTenantWithOwner,
  tokenOf,
  type TIdentityHarness,
} from '../../test/identity-harness.ts';
import { completePasswordReset } from './complete-password-reset.ts';
import { requestPasswordReset } from './request-password-reset.ts';
import { signIn } from './sign-in.ts';
import { validatePortalSession } from './validate-portal-session.ts';

let harness: TIdentityHarness;
before(async () => {
  harness = await openIdentityHarness();
});
after(async () => {
  await harness.close();
});

const NEW_PASSWORD = 'otra contraseña bien larga';

async function resetLinkFor(email: string, now?: () => Date) {
  const before = harness.catcher.messages().length;
  const requested = await requestPasswordReset({
    database: harness.database,
    email,
    mail: harness.mail,
    ...(now === undefined ? {} : { now }),
  });
  await requested.delivery;
  const message = harness.catcher
    .messages()
    .slice(before)
    .find((caught) => caught.envelopeTo.includes(email));
  assert.ok(message, `no reset e-mail for ${email}`);
  return tokenOf(message, '/reset-password');
}

test('a reset link sets the password once and signs the user out everywhere', async () => {
  const { owner } = await seedTenantWithOwner(harness.database);
  const sign = (password: string) =>
    signIn({ database: harness.database, email: owner.user.email, password, ip: null, userAgent: null });
  const before = await sign(owner.password);
  const token = await resetLinkFor(owner.user.email);
  const done = await completePasswordReset({ database: harness.database, token, password: NEW_PASSWORD });
  assert.equal(done.sessionsRevoked, 1);
  assert.equal(
    await validatePortalSession({ database: harness.database, sessionId: before.sessionId }),
    null,
  );
  assert.equal((await refusal(sign(owner.password))).code, 'INVALID_CREDENTIALS');
  await sign(NEW_PASSWORD);
  assert.equal(
    (await refusal(completePasswordReset({ database: harness.database, token, password: 'y'.repeat(20) })))
      .code,
    'PASSWORD_RESET_INVALID',
  );
});

test('the answer to a request is the same whether or not the e-mail has an account, and only an account gets mail', async () => {
  const { owner } = await seedTenantWithOwner(harness.database);
  const before = harness.catcher.messages().length;
  const known = await requestPasswordReset({
    database: harness.database,
    email: owner.user.email,
    mail: harness.mail,
  });
  const unknown = await requestPasswordReset({
    database: harness.database,
    email: 'sin-cuenta@example.com',
    mail: harness.mail,
  });
  assert.deepEqual(Object.keys(known), Object.keys(unknown));
  await Promise.all([known.delivery, unknown.delivery]);
  const sent = harness.catcher.messages().slice(before);
  assert.deepEqual(
    sent.map((message) => message.envelopeTo),
    [[owner.user.email]],
  );
});

test('a reset link expires after an hour; a newer password makes older links useless', async () => {
  const clock = manualClock(new Date());
  const { owner } = await seedTenantWithOwner(harness.database);
  const old = await resetLinkFor(owner.user.email, clock.now);
  clock.advance(3600_000);
  assert.equal(
    (
      await refusal(
        completePasswordReset({
          database: harness.database,
          token: old,
          password: NEW_PASSWORD,
          now: clock.now,
        }),
      )
    ).code,
    'PASSWORD_RESET_EXPIRED',
  );
  const first = await resetLinkFor(owner.user.email, clock.now);
  const second = await resetLinkFor(owner.user.email, clock.now);
  await completePasswordReset({
    database: harness.database,
    token: second,
    password: NEW_PASSWORD,
    now: clock.now,
  });
  assert.equal(
    (
      await refusal(
        completePasswordReset({
          database: harness.database,
          token: first,
          password: NEW_PASSWORD,
          now: clock.now,
        }),
      )
    ).code,
    'PASSWORD_RESET_INVALID',
  );
});
