/**
 * The receiver guide's example receiver (test/example-webhook-receiver.ts) against OUR signer and
 * sender (`@ecf/services`' webhook transport): a delivery verifies and is applied once; a tampered
 * body, a timestamp outside 5 minutes, a secret not installed and a header id that is not the
 * signed one are refused; both `v1` of a rotation are accepted against either secret, and a
 * header parsed into a map would have lost one; a duplicate (sequential or concurrent) is answered
 * 200 and applied once. Also: the guide's code is the file's code, verbatim.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  closeWebhookConnections,
  deliverWebhook,
  signWebhookBody,
  WEBHOOK_EVENT_TYPES,
  webhookRequestHeaders,
  ZDirectWebhookPayload,
  ZPartnerWebhookPayload,
} from '@ecf/services';
import {
  createMemoryInbox,
  decideDocumentUpdate,
  startWebhookReceiver,
  verifyWebhookSignature,
  type TStoredEvent,
} from '../test/example-webhook-receiver.ts';

const OLD_SECRET = 'whsec_2vV1o0Qk8Zr3Qd2m3w0o8XoH1yJmYxV5bqJvC9yN0Yk';
const NEW_SECRET = 'whsec_Yc3Jq1wS6M0o4zK2nH8dT5uV7xP9rL0aB1cD2eF3gH4';

after(() => closeWebhookConnections());

/** A receiver with the given secrets installed, recording what it applies. */
async function receiver(secrets: string[]) {
  const inbox = createMemoryInbox();
  const applied: TStoredEvent[] = [];
  let installed = secrets;
  const started = await startWebhookReceiver({
    secrets: () => installed,
    inbox,
    apply: async (event) => {
      applied.push(event);
    },
  });
  return {
    ...started,
    inbox,
    applied,
    install: (next: string[]) => {
      installed = next;
    },
    /**
     * Effects run after the answer: wait until every event stored has been applied (bounded; the
     * assertions that follow say what is missing). A refused request stores nothing before it answers.
     */
    settled: async () => {
      const deadline = Date.now() + 5_000;
      while ([...inbox.events.values()].some((stored) => stored.appliedAt === null)) {
        if (Date.now() > deadline) return;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    },
  };
}

function event(type = 'document.state_changed') {
  const id = randomUUID();
  const body = JSON.stringify({
    id,
    type,
    createdAt: new Date().toISOString(),
    tenantId: randomUUID(),
    environment: 'TesteCF',
    document: {
      id: randomUUID(),
      type: 'E31',
      encf: 'E310000000101',
      status: 'accepted',
      trackId: randomUUID(),
    },
    data: { severity: 'info', message: 'Aceptado', payload: { fromStatus: 'sent', lastError: null } },
  });
  return { id, type, body };
}

/** One request as our sender builds it, with the signature given (so the test can bend it). */
async function post(url: string, options: { id: string; type: string; body: string; signature: string }) {
  const response = await fetch(url, {
    method: 'POST',
    headers: webhookRequestHeaders({
      eventId: options.id,
      eventType: options.type,
      signature: options.signature,
    }),
    body: options.body,
  });
  return {
    status: response.status,
    body: (await response.json()) as { error?: string; duplicate?: boolean },
  };
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

test('a delivery by our sender verifies, is answered 200 and applied once', async () => {
  const target = await receiver([NEW_SECRET]);
  try {
    const sent = event();
    const result = await deliverWebhook({
      url: target.url,
      body: sent.body,
      eventId: sent.id,
      eventType: sent.type,
      secrets: [NEW_SECRET],
      now: () => new Date(),
      allowPrivateTargets: true,
    });
    assert.equal(result.outcome, 'succeeded', JSON.stringify(result));
    assert.equal(result.status, 200);
    await target.settled();
    assert.deepEqual(
      target.applied.map((applied) => [applied.id, applied.type]),
      [[sent.id, sent.type]],
    );
    assert.deepEqual(target.applied[0]?.body, JSON.parse(sent.body));
    assert.ok(target.inbox.events.get(sent.id)?.appliedAt instanceof Date);
  } finally {
    await target.close();
  }
});

test('a tampered body is refused (401), nothing stored; our sender records it failed, not retried', async () => {
  const target = await receiver([NEW_SECRET]);
  try {
    const sent = event();
    const signature = signWebhookBody({
      body: sent.body,
      secrets: [NEW_SECRET],
      timestampSeconds: nowSeconds(),
    });
    const tampered = sent.body.replace('"accepted"', '"rejected"');
    assert.notEqual(tampered, sent.body);
    assert.deepEqual(await post(target.url, { ...sent, body: tampered, signature }), {
      status: 401,
      body: { error: 'no_matching_signature' },
    });
    // One byte of whitespace is a different body too: the HMAC is over the raw bytes.
    assert.equal((await post(target.url, { ...sent, body: `${sent.body} `, signature })).status, 401);
    // The signature of another timestamp does not fit this one.
    const moved = signature.replace(/^t=(\d+)/, (_, t: string) => `t=${Number(t) - 1}`);
    assert.equal((await post(target.url, { ...sent, signature: moved })).status, 401);
    // Signed with a secret the receiver does not have: our sender's outcome for a 401 is `failed`.
    const result = await deliverWebhook({
      url: target.url,
      body: sent.body,
      eventId: sent.id,
      eventType: sent.type,
      secrets: [OLD_SECRET],
      now: () => new Date(),
      allowPrivateTargets: true,
    });
    assert.equal(result.outcome, 'failed');
    assert.equal(result.status, 401);
    await target.settled();
    assert.equal(target.inbox.events.size, 0);
    assert.equal(target.applied.length, 0);
    // And the untouched request goes through.
    assert.equal((await post(target.url, { ...sent, signature })).status, 200);
  } finally {
    await target.close();
  }
});

test('a timestamp more than 5 minutes away is refused, either side; within 5 minutes it is accepted', async () => {
  const target = await receiver([NEW_SECRET]);
  try {
    // Ten seconds of margin on each side of the 300-second bound: the receiver reads its clock after
    // the request arrived, and a loaded machine may take seconds for that.
    for (const [offset, status] of [
      [-310, 401],
      [310, 401],
      [-3600, 401],
      [-290, 200],
      [290, 200],
    ] as const) {
      const sent = event();
      const signature = signWebhookBody({
        body: sent.body,
        secrets: [NEW_SECRET],
        timestampSeconds: nowSeconds() + offset,
      });
      const answer = await post(target.url, { ...sent, signature });
      assert.equal(answer.status, status, `offset ${offset}: ${JSON.stringify(answer)}`);
      if (status === 401) assert.equal(answer.body.error, 'timestamp_out_of_tolerance');
    }
    // Our sender signs every attempt anew: an attempt made with a clock 10 minutes behind is refused.
    const late = event();
    const result = await deliverWebhook({
      url: target.url,
      body: late.body,
      eventId: late.id,
      eventType: late.type,
      secrets: [NEW_SECRET],
      now: () => new Date(Date.now() - 600_000),
      allowPrivateTargets: true,
    });
    assert.equal(result.status, 401);
  } finally {
    await target.close();
  }
});

test('rotation: two v1 in one header, accepted with either secret installed; a map would drop one', async () => {
  const target = await receiver([OLD_SECRET]);
  try {
    const sent = event();
    // Our signer during a rotation's overlap: one v1 per secret, the new one first.
    const signature = signWebhookBody({
      body: sent.body,
      secrets: [NEW_SECRET, OLD_SECRET],
      timestampSeconds: nowSeconds(),
    });
    assert.equal(signature.match(/v1=/g)?.length, 2);
    const accepted: string[] = [];
    for (const installed of [
      [OLD_SECRET],
      [NEW_SECRET],
      [OLD_SECRET, NEW_SECRET],
      [NEW_SECRET, OLD_SECRET],
    ]) {
      target.install(installed);
      const rotating = event();
      const both = signWebhookBody({
        body: rotating.body,
        secrets: [NEW_SECRET, OLD_SECRET],
        timestampSeconds: nowSeconds(),
      });
      assert.equal(
        (await post(target.url, { ...rotating, signature: both })).status,
        200,
        `installed ${installed.length}`,
      );
      accepted.push(rotating.id);
    }
    target.install(['whsec_neither']);
    assert.equal((await post(target.url, { ...sent, signature })).status, 401);

    // The mistake the guide warns about: a key-value map keeps the last v1 only (here the OLD
    // secret's), so a receiver that already switched to the new secret refuses a valid request.
    const asMap = Object.fromEntries(signature.split(',').map((part) => part.split('=') as [string, string]));
    const mapHeader = `t=${asMap['t']},v1=${asMap['v1']}`;
    const withNewOnly = { rawBody: Buffer.from(sent.body), secrets: [NEW_SECRET] };
    assert.equal(verifyWebhookSignature({ header: mapHeader, ...withNewOnly }).valid, false);
    assert.equal(verifyWebhookSignature({ header: signature, ...withNewOnly }).valid, true);

    // Our sender with both secrets, to a receiver holding only the new one.
    target.install([NEW_SECRET]);
    const rotated = event();
    const result = await deliverWebhook({
      url: target.url,
      body: rotated.body,
      eventId: rotated.id,
      eventType: rotated.type,
      secrets: [NEW_SECRET, OLD_SECRET],
      now: () => new Date(),
      allowPrivateTargets: true,
    });
    assert.equal(result.outcome, 'succeeded');
    await target.settled();
    assert.deepEqual(
      target.applied.map((applied) => applied.id),
      [...accepted, rotated.id],
    );
  } finally {
    await target.close();
  }
});

test('a duplicate event id is answered 200 and applied once, also when the copies arrive together', async () => {
  const target = await receiver([NEW_SECRET]);
  try {
    const sent = event();
    const deliver = () =>
      deliverWebhook({
        url: target.url,
        body: sent.body,
        eventId: sent.id,
        eventType: sent.type,
        secrets: [NEW_SECRET],
        now: () => new Date(),
        allowPrivateTargets: true,
      });
    const first = await deliver();
    const retry = await deliver();
    assert.equal(first.outcome, 'succeeded');
    assert.equal(retry.outcome, 'succeeded');
    assert.match(retry.responseExcerpt ?? '', /"duplicate":true/);
    const burst = event();
    const together = await Promise.all(
      Array.from({ length: 5 }, () =>
        deliverWebhook({
          url: target.url,
          body: burst.body,
          eventId: burst.id,
          eventType: burst.type,
          secrets: [NEW_SECRET],
          now: () => new Date(),
          allowPrivateTargets: true,
        }),
      ),
    );
    assert.deepEqual(
      together.map((result) => result.status),
      [200, 200, 200, 200, 200],
    );
    await target.settled();
    assert.deepEqual(target.applied.map((applied) => applied.id).sort(), [sent.id, burst.id].sort());
  } finally {
    await target.close();
  }
});

test('the dedupe key is the signed body id: a header id that differs is refused', async () => {
  const target = await receiver([NEW_SECRET]);
  try {
    const sent = event();
    const signature = signWebhookBody({
      body: sent.body,
      secrets: [NEW_SECRET],
      timestampSeconds: nowSeconds(),
    });
    assert.deepEqual(await post(target.url, { ...sent, id: randomUUID(), signature }), {
      status: 400,
      body: { error: 'event_id_mismatch' },
    });
    assert.equal(target.inbox.events.size, 0);
  } finally {
    await target.close();
  }
});

test('verifyWebhookSignature: missing and malformed headers, other schemes ignored', () => {
  const body = Buffer.from('{"id":"x"}');
  const t = nowSeconds();
  const valid = signWebhookBody({ body, secrets: [NEW_SECRET], timestampSeconds: t });
  const check = (header: string | undefined) =>
    verifyWebhookSignature({ header, rawBody: body, secrets: [NEW_SECRET] });
  assert.deepEqual(check(undefined), { valid: false, reason: 'missing_header' });
  assert.deepEqual(check(''), { valid: false, reason: 'missing_header' });
  assert.deepEqual(check(valid.replace(/^t=\d+,/, '')), { valid: false, reason: 'malformed_header' });
  assert.deepEqual(check(`t=${t},${valid}`), { valid: false, reason: 'malformed_header' });
  assert.deepEqual(check(valid.replace(/^t=\d+/, 't=abc')), { valid: false, reason: 'malformed_header' });
  assert.deepEqual(check(`${valid},v2=deadbeef`), { valid: true, timestamp: t });
  assert.deepEqual(check(valid.replace(/v1=[0-9a-f]+/, 'v1=zz')), {
    valid: false,
    reason: 'no_matching_signature',
  });
  assert.deepEqual(check(valid.replace(/v1=([0-9a-f]+)/, (_, hex: string) => `v1=${hex.toUpperCase()}`)), {
    valid: true,
    timestamp: t,
  });
});

test('decideDocumentUpdate: a final status is never overwritten without asking the status batch', () => {
  const at = (minute: number) => `2026-04-01T14:${String(minute).padStart(2, '0')}:00.000Z`;
  assert.equal(decideDocumentUpdate(undefined, { status: 'sent', eventCreatedAt: at(1) }), 'apply');
  assert.equal(
    decideDocumentUpdate(
      { status: 'sent', eventCreatedAt: at(1) },
      { status: 'accepted', eventCreatedAt: at(2) },
    ),
    'apply',
  );
  assert.equal(
    decideDocumentUpdate(
      { status: 'accepted', eventCreatedAt: at(2) },
      { status: 'accepted', eventCreatedAt: at(2) },
    ),
    'ignore',
  );
  // The late `sent` after `accepted`: do not step back.
  assert.equal(
    decideDocumentUpdate(
      { status: 'accepted', eventCreatedAt: at(2) },
      { status: 'sent', eventCreatedAt: at(1) },
    ),
    'check_status_batch',
  );
  assert.equal(
    decideDocumentUpdate(
      { status: 'contingency', eventCreatedAt: at(3) },
      { status: 'sent', eventCreatedAt: at(1) },
    ),
    'check_status_batch',
  );
});

test('the receiver guide shows the example file verbatim', () => {
  const guide = readFileSync(
    path.join(import.meta.dirname, '..', '..', '..', 'docs', 'webhooks', 'receiver-guide.md'),
    'utf8',
  );
  const source = readFileSync(
    path.join(import.meta.dirname, '..', 'test', 'example-webhook-receiver.ts'),
    'utf8',
  );
  const blocks = [...guide.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1] ?? '');
  assert.ok(blocks.length >= 1, 'the guide has a ts block');
  for (const block of blocks)
    assert.ok(source.includes(block), `not in the example file:\n${block.slice(0, 200)}`);
});

test('every example body of the event catalogue (docs/webhooks/events.md) parses with its zod schema', () => {
  const catalogue = readFileSync(
    path.join(import.meta.dirname, '..', '..', '..', 'docs', 'webhooks', 'events.md'),
    'utf8',
  );
  const examples = [...catalogue.matchAll(/```json\n([\s\S]*?)```/g)].map(
    (match) => JSON.parse(match[1] ?? '') as Record<string, unknown>,
  );
  const types = new Set<string>();
  for (const example of examples) {
    const schema = example['schemaVersion'] === undefined ? ZDirectWebhookPayload : ZPartnerWebhookPayload;
    const parsed = schema.safeParse(example);
    assert.ok(parsed.success, `${String(example['type'])}: ${JSON.stringify(parsed.error?.issues)}`);
    types.add(String(example['type']));
  }
  // One example at least of every type the engine produces (the Partner-only types in the Partner payload).
  assert.deepEqual([...types].sort(), [...WEBHOOK_EVENT_TYPES].sort());
});
