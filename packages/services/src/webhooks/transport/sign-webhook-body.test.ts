// Our `Svc-Signature` checked by an independent implementation: the Stripe Node SDK's
// `webhooks.constructEvent` (same `t=…,v1=…` scheme; our header value passed as its
// `stripe-signature`), for one secret, for two `v1` during a rotation, and its tolerance window.
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { describe, test } from 'node:test';
import Stripe from 'stripe';
import { signWebhookBody, webhookRequestHeaders, WEBHOOK_SIGNATURE_TOLERANCE_SECONDS } from './index.ts';

const stripe = new Stripe('sk_test_not_used_offline');
const OLD_SECRET = 'whsec_b2xkLXNlY3JldC1vbGQtc2VjcmV0LW9sZC1zZWNyZXQ';
const NEW_SECRET = 'whsec_bmV3LXNlY3JldC1uZXctc2VjcmV0LW5ldy1zZWNyZXQ';
// Raw bytes as stored: non-ASCII text and key order that a re-serialization would change.
const BODY =
  '{"id":"evt_0001","type":"document.state_changed","object":"event","data":{"message":"Aceptado — señal"}}';
const NOW_MS = Date.parse('2026-11-25T12:00:00Z');
const NOW_SECONDS = NOW_MS / 1000;

const verify = (header: string, secret: string, receivedAtMs = NOW_MS, body: string | Buffer = BODY) =>
  stripe.webhooks.constructEvent(
    body,
    header,
    secret,
    WEBHOOK_SIGNATURE_TOLERANCE_SECONDS,
    undefined,
    receivedAtMs,
  );

describe('signWebhookBody', () => {
  test('one secret: t and one v1 = hex HMAC-SHA256 of `${t}.${rawBody}`; Stripe verifies it', () => {
    const header = signWebhookBody({ body: BODY, secrets: [NEW_SECRET], timestampSeconds: NOW_SECONDS });
    const expected = createHmac('sha256', NEW_SECRET).update(`${NOW_SECONDS}.${BODY}`, 'utf8').digest('hex');
    assert.equal(header, `t=${NOW_SECONDS},v1=${expected}`);
    assert.match(header, /^t=\d+,v1=[0-9a-f]{64}$/);
    const event = verify(header, NEW_SECRET);
    assert.equal(event.id, 'evt_0001');
    // The same bytes given as a Buffer sign the same.
    assert.equal(
      signWebhookBody({ body: Buffer.from(BODY), secrets: [NEW_SECRET], timestampSeconds: NOW_SECONDS }),
      header,
    );
    assert.throws(() => verify(header, OLD_SECRET), /No signatures found matching the expected signature/);
    assert.throws(
      () => verify(header, NEW_SECRET, NOW_MS, BODY.replace('0001', '0002')),
      /No signatures found/,
    );
  });

  test('rotation: two v1, each secret verifies on its own', () => {
    const header = signWebhookBody({
      body: BODY,
      secrets: [NEW_SECRET, OLD_SECRET],
      timestampSeconds: NOW_SECONDS,
    });
    assert.match(header, /^t=\d+,v1=[0-9a-f]{64},v1=[0-9a-f]{64}$/);
    assert.equal(verify(header, NEW_SECRET).id, 'evt_0001');
    assert.equal(verify(header, OLD_SECRET).id, 'evt_0001');
    assert.throws(() => verify(header, 'whsec_someone_else'), /No signatures found/);
  });

  test('tolerance: Stripe refuses a timestamp older than 5 minutes and accepts one within', () => {
    const header = signWebhookBody({ body: BODY, secrets: [NEW_SECRET], timestampSeconds: NOW_SECONDS });
    assert.equal(verify(header, NEW_SECRET, NOW_MS + 299_000).id, 'evt_0001');
    assert.throws(() => verify(header, NEW_SECRET, NOW_MS + 301_000), /Timestamp outside the tolerance zone/);
    const stale = signWebhookBody({
      body: BODY,
      secrets: [NEW_SECRET, OLD_SECRET],
      timestampSeconds: NOW_SECONDS - 400,
    });
    assert.throws(() => verify(stale, OLD_SECRET), /Timestamp outside the tolerance zone/);
  });

  test('refuses to sign without a secret or with a fractional timestamp', () => {
    assert.throws(() => signWebhookBody({ body: BODY, secrets: [], timestampSeconds: NOW_SECONDS }));
    assert.throws(() => signWebhookBody({ body: BODY, secrets: [NEW_SECRET], timestampSeconds: 1.5 }));
  });

  test('request headers', () => {
    assert.deepEqual(
      webhookRequestHeaders({ eventId: 'evt_1', eventType: 'ecf.queued', signature: 't=1,v1=ab' }),
      {
        'content-type': 'application/json',
        'svc-event-id': 'evt_1',
        'svc-event-type': 'ecf.queued',
        'svc-signature': 't=1,v1=ab',
        'user-agent': 'Svc-Webhooks/1.0',
      },
    );
    assert.equal(
      webhookRequestHeaders({ eventId: 'e', eventType: 't', signature: 's', userAgent: 'Other/2' })[
        'user-agent'
      ],
      'Other/2',
    );
  });
});
