// verifyWebhook's rules, each with the delivery that breaks it: the signatures are computed here with
// node:crypto as the contract defines them (e2e/specs/sdk.spec.ts checks real deliveries of the
// service's signer, across a secret rotation).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { verifyWebhook, WebhookVerificationError, type TWebhookRefusal } from '../src/index.ts';

const body = JSON.stringify({
  id: 'a3f1c0de-0000-4000-8000-000000000001',
  type: 'ecf.queued',
  data: { message: 'Cola' },
});
const now = 1_800_000_000;
const v1 = (secret: string, t: number, raw = body) =>
  createHmac('sha256', secret).update(`${t}.${raw}`).digest('hex');

async function refusal(options: Parameters<typeof verifyWebhook>[0]): Promise<TWebhookRefusal> {
  const error = await verifyWebhook({ nowSeconds: now, ...options }).catch((caught: unknown) => caught);
  assert.ok(error instanceof WebhookVerificationError, String(error));
  return error.reason;
}

test('any v1 against any installed secret: two signatures during a rotation, either secret alone', async () => {
  const header = `t=${now},v1=${v1('whsec_new', now)},v1=${v1('whsec_old', now)}`;
  for (const [secrets, index] of [
    [['whsec_new'], 0],
    [['whsec_old'], 0],
    [['whsec_other', 'whsec_old'], 1],
  ] as const) {
    const verified = await verifyWebhook({
      rawBody: Buffer.from(body),
      headers: { 'Svc-Signature': header },
      secrets,
      nowSeconds: now,
    });
    assert.equal(verified.secretIndex, index);
    assert.equal(verified.eventId, 'a3f1c0de-0000-4000-8000-000000000001');
    assert.equal(verified.eventType, 'ecf.queued');
  }
});

test('the raw bytes are what is signed: one byte more, re-serialized JSON or another secret is no match', async () => {
  const headers = { 'svc-signature': `t=${now},v1=${v1('whsec_a', now)}` };
  assert.equal(
    await refusal({ rawBody: `${body} `, headers, secrets: ['whsec_a'] }),
    'no_matching_signature',
  );
  assert.equal(
    await refusal({ rawBody: JSON.stringify(JSON.parse(body), null, 1), headers, secrets: ['whsec_a'] }),
    'no_matching_signature',
  );
  assert.equal(await refusal({ rawBody: body, headers, secrets: ['whsec_b'] }), 'no_matching_signature');
  const fetchHeaders = new Headers(headers);
  assert.equal(
    (
      await verifyWebhook({
        rawBody: new TextEncoder().encode(body),
        headers: fetchHeaders,
        secrets: ['whsec_a'],
        nowSeconds: now,
      })
    ).timestamp,
    now,
  );
});

test('t within the tolerance either side (300 s by default), and the header read without a map', async () => {
  const at = (t: number) => ({ 'svc-signature': `t=${t},v1=${v1('whsec_a', t)}` });
  assert.equal(
    (await verifyWebhook({ rawBody: body, headers: at(now - 300), secrets: ['whsec_a'], nowSeconds: now }))
      .timestamp,
    now - 300,
  );
  assert.equal(
    await refusal({ rawBody: body, headers: at(now - 301), secrets: ['whsec_a'] }),
    'timestamp_out_of_tolerance',
  );
  assert.equal(
    await refusal({ rawBody: body, headers: at(now + 301), secrets: ['whsec_a'] }),
    'timestamp_out_of_tolerance',
  );
  assert.equal(
    (
      await verifyWebhook({
        rawBody: body,
        headers: at(now - 900),
        secrets: ['whsec_a'],
        nowSeconds: now,
        toleranceSeconds: 1000,
      })
    ).timestamp,
    now - 900,
  );
  assert.equal(await refusal({ rawBody: body, headers: {}, secrets: ['whsec_a'] }), 'missing_header');
  assert.equal(
    await refusal({
      rawBody: body,
      headers: { 'svc-signature': `v1=${v1('whsec_a', now)}` },
      secrets: ['whsec_a'],
    }),
    'malformed_header',
  );
  // Two t: which one was signed is ambiguous; a map would have kept one of them.
  assert.equal(
    await refusal({
      rawBody: body,
      headers: { 'svc-signature': `t=${now},t=${now - 1},v1=${v1('whsec_a', now)}` },
      secrets: ['whsec_a'],
    }),
    'malformed_header',
  );
  // The first v1 broken, the second good: still verified (a map keeping the first would refuse it).
  const verified = await verifyWebhook({
    rawBody: body,
    headers: { 'svc-signature': `t=${now},v1=zz,v1=${v1('whsec_a', now)}` },
    secrets: ['whsec_a'],
    nowSeconds: now,
  });
  assert.equal(verified.eventType, 'ecf.queued');
});

test('a signed body that is not an event, or an Svc-Event-Id that is not its id, is refused', async () => {
  const raw = '[1,2]';
  assert.equal(
    await refusal({
      rawBody: raw,
      headers: { 'svc-signature': `t=${now},v1=${v1('whsec_a', now, raw)}` },
      secrets: ['whsec_a'],
    }),
    'invalid_body',
  );
  const headers = { 'svc-signature': `t=${now},v1=${v1('whsec_a', now)}`, 'svc-event-id': 'otro' };
  assert.equal(await refusal({ rawBody: body, headers, secrets: ['whsec_a'] }), 'event_id_mismatch');
  await assert.rejects(verifyWebhook({ rawBody: body, headers, secrets: [] }), TypeError);
});
