// One attempt against real local receivers (plain node:http servers on 127.0.0.1, so with the
// development option `allowPrivateTargets` on; target-rules.test.ts proves the guard refuses them
// when it is off): each answer gives the outcome of the spec's table, the request carries the
// headers and the exact body, and Stripe's SDK verifies the signature the receiver got.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import Stripe from 'stripe';
import { startReceiver, type TReceiver } from '../../../test/webhook-receivers.ts';
import {
  closeWebhookConnections,
  deliverWebhook,
  WEBHOOK_ERROR_MESSAGE_MAX_LENGTH,
  WEBHOOK_TIMEOUT_MS,
  type TDeliverWebhookOptions,
  type TWebhookResolver,
} from './index.ts';

const SECRET = 'whsec_dGVzdC1zZWNyZXQtdGVzdC1zZWNyZXQtdGVzdC1zZWNyZXQ';
const BODY = '{"id":"evt_42","type":"document.state_changed","data":{"message":"Aceptado — ñ"}}';
const NOW = new Date('2026-11-25T12:00:00Z');

const receivers: TReceiver[] = [];
async function receiver(
  answer: Parameters<typeof startReceiver>[0],
  options?: Parameters<typeof startReceiver>[1],
) {
  const started = await startReceiver(answer, options);
  receivers.push(started);
  return started;
}
after(async () => {
  await Promise.all(receivers.map((started) => started.close()));
  await closeWebhookConnections();
});

const deliver = (url: string, options: Partial<TDeliverWebhookOptions> = {}) =>
  deliverWebhook({
    url,
    body: BODY,
    eventId: 'evt_42',
    eventType: 'document.state_changed',
    secrets: [SECRET],
    now: () => NOW,
    allowPrivateTargets: true,
    timeoutMs: 2_000,
    ...options,
  });

describe('deliverWebhook outcomes', () => {
  test('2xx succeeds; the receiver gets the headers and the exact body, and Stripe verifies it', async () => {
    const ok = await receiver((response) =>
      response.writeHead(200, { 'content-type': 'text/plain' }).end('stored'),
    );
    const result = await deliver(ok.url);
    assert.equal(result.outcome, 'succeeded');
    assert.equal(result.status, 200);
    assert.equal(result.responseExcerpt, 'stored');
    assert.equal(result.error, undefined);
    assert.ok(result.durationMs >= 0 && result.durationMs < 2_000);

    const [received] = ok.requests;
    assert.ok(received);
    assert.equal(received.method, 'POST');
    assert.equal(received.url, '/hook');
    assert.equal(received.headers['content-type'], 'application/json');
    assert.equal(received.headers['svc-event-id'], 'evt_42');
    assert.equal(received.headers['svc-event-type'], 'document.state_changed');
    assert.equal(received.headers['user-agent'], 'Svc-Webhooks/1.0');
    assert.ok(received.body.equals(Buffer.from(BODY)));
    const signature = received.headers['svc-signature'];
    assert.equal(typeof signature, 'string');
    assert.match(signature as string, new RegExp(`^t=${NOW.getTime() / 1000},v1=[0-9a-f]{64}$`));
    const stripe = new Stripe('sk_test_not_used_offline');
    const event = stripe.webhooks.constructEvent(
      received.body,
      signature as string,
      SECRET,
      300,
      undefined,
      NOW.getTime(),
    );
    assert.equal(event.id, 'evt_42');

    // A second attempt: a new timestamp and signature, the same id and body; two secrets, two v1.
    const later = new Date(NOW.getTime() + 10_000);
    const again = await deliver(ok.url, { now: () => later, secrets: [SECRET, 'whsec_old'] });
    assert.equal(again.outcome, 'succeeded');
    const second = ok.requests[1];
    assert.ok(second);
    assert.equal(second.headers['svc-event-id'], 'evt_42');
    assert.ok(second.body.equals(received.body));
    assert.match(
      second.headers['svc-signature'] as string,
      new RegExp(`^t=${later.getTime() / 1000},v1=\\w{64},v1=\\w{64}$`),
    );
    for (const secret of [SECRET, 'whsec_old'])
      assert.equal(
        stripe.webhooks.constructEvent(
          second.body,
          second.headers['svc-signature'] as string,
          secret,
          300,
          undefined,
          later.getTime(),
        ).id,
        'evt_42',
      );
  });

  test('every 2xx succeeds; an empty body has no excerpt; a Uint8Array body goes byte for byte', async () => {
    const noContent = await receiver((response) => response.writeHead(204).end());
    const accepted = await receiver((response) => response.writeHead(299).end());
    const bytes = new TextEncoder().encode(BODY);
    const result = await deliver(noContent.url, { body: bytes });
    assert.deepEqual({ ...result, durationMs: 0 }, { outcome: 'succeeded', status: 204, durationMs: 0 });
    assert.ok(noContent.requests[0]?.body.equals(Buffer.from(bytes)));
    assert.equal((await deliver(accepted.url)).outcome, 'succeeded');
  });

  test('3xx fails at once and is never followed, even to a private address', async () => {
    const target = await receiver((response) => response.writeHead(200).end('should never be reached'));
    for (const [status, location] of [
      [301, target.url],
      [302, 'http://10.0.0.1/internal'],
      [307, 'http://169.254.169.254/latest/meta-data/'],
      [308, target.url],
    ] as const) {
      const redirecting = await receiver((response) => response.writeHead(status, { location }).end('moved'));
      const result = await deliver(redirecting.url);
      assert.equal(result.outcome, 'failed', String(status));
      assert.equal(result.status, status);
      assert.equal(result.error?.code, 'redirect');
      assert.equal(result.responseExcerpt, 'moved');
      assert.equal(redirecting.requests.length, 1);
    }
    assert.equal(target.requests.length, 0);
  });

  test('400, 404, 410 and other 4xx fail at once; 408, 429 and 5xx retry', async () => {
    const expected: [number, 'failed' | 'retry'][] = [
      [400, 'failed'],
      [401, 'failed'],
      [404, 'failed'],
      [410, 'failed'],
      [422, 'failed'],
      [408, 'retry'],
      [429, 'retry'],
      [500, 'retry'],
      [502, 'retry'],
      [503, 'retry'],
      [599, 'retry'],
    ];
    for (const [status, outcome] of expected) {
      const answering = await receiver((response) =>
        response.writeHead(status, { 'content-type': 'application/json' }).end(`{"status":${status}}`),
      );
      const result = await deliver(answering.url);
      assert.equal(result.outcome, outcome, String(status));
      assert.equal(result.status, status);
      assert.equal(result.error?.code, 'http_status');
      assert.equal(result.responseExcerpt, `{"status":${status}}`);
    }
  });

  test('a receiver that hangs past the timeout: retry (shortened timeout)', async () => {
    const hanging = await receiver(() => undefined);
    const result = await deliver(hanging.url, { timeoutMs: 300 });
    assert.equal(result.outcome, 'retry');
    assert.equal(result.status, undefined);
    assert.equal(result.error?.code, 'timeout');
    assert.ok(result.durationMs >= 290 && result.durationMs < 1_500, String(result.durationMs));
    assert.equal(hanging.requests.length, 1);
  });

  test('headers sent, then the body hangs: the timeout covers the body read too', async () => {
    const slowBody = await receiver((response) => {
      response.writeHead(200);
      response.write('partial');
    });
    const result = await deliver(slowBody.url, { timeoutMs: 300 });
    assert.equal(result.outcome, 'retry');
    assert.equal(result.status, 200);
    assert.equal(result.error?.code, 'timeout');
  });

  test('the default timeout is 10 000 ms (a real wait)', async () => {
    assert.equal(WEBHOOK_TIMEOUT_MS, 10_000);
    const hanging = await receiver(() => undefined);
    const result = await deliver(hanging.url, { timeoutMs: undefined });
    assert.equal(result.outcome, 'retry');
    assert.equal(result.error?.code, 'timeout');
    assert.match(result.error?.message ?? '', /10000 ms/);
    assert.ok(result.durationMs >= 9_950 && result.durationMs < 11_500, String(result.durationMs));
  });

  test('a 1 MB answer fails after reading at most 64 KiB (streamed, and with Content-Length)', async () => {
    const chunk = Buffer.alloc(16 * 1024, 'x');
    let written = 0;
    const streaming = await receiver((response) => {
      response.writeHead(200, { 'content-type': 'text/plain' });
      const writeMore = () => {
        while (written < 1024 * 1024) {
          written += chunk.length;
          if (!response.write(chunk)) return void response.once('drain', writeMore);
        }
        response.end();
      };
      writeMore();
    });
    const result = await deliver(streaming.url);
    assert.equal(result.outcome, 'failed');
    assert.equal(result.status, 200);
    assert.equal(result.error?.code, 'response_too_large');
    assert.equal(result.responseExcerpt, 'x'.repeat(512));
    // An endless answer ends the same way, quickly: the reader stops at the limit, not at the timeout.
    const endless = await receiver((response) => {
      response.writeHead(200);
      const writeMore = () => {
        while (response.write(chunk));
        response.once('drain', writeMore);
      };
      writeMore();
    });
    const endlessResult = await deliver(endless.url, { timeoutMs: 5_000 });
    assert.equal(endlessResult.error?.code, 'response_too_large');
    assert.ok(endlessResult.durationMs < 2_000, String(endlessResult.durationMs));

    const declared = await receiver((response) =>
      response.writeHead(500, { 'content-length': String(1024 * 1024) }).end(Buffer.alloc(1024 * 1024, 'y')),
    );
    const large = await deliver(declared.url);
    assert.equal(large.outcome, 'failed');
    assert.equal(large.status, 500);
    assert.equal(large.error?.code, 'response_too_large');
  });

  test('exactly 64 KiB is read whole and succeeds; the excerpt keeps 512 bytes without NULs', async () => {
    const body = Buffer.concat([Buffer.from('ñ\u0000ok'), Buffer.alloc(64 * 1024 - 5, 'z')]);
    assert.equal(body.length, 64 * 1024);
    const full = await receiver((response) => response.writeHead(200).end(body));
    const result = await deliver(full.url);
    assert.equal(result.outcome, 'succeeded');
    assert.equal(result.responseExcerpt, `ñok${'z'.repeat(512 - 5)}`);
  });

  test('a closed connection retries: before any answer, and in the middle of the body', async () => {
    const closing = await receiver((_response, request) => request.socket.destroy());
    const result = await deliver(closing.url);
    assert.equal(result.outcome, 'retry');
    assert.equal(result.status, undefined);
    assert.equal(result.error?.code, 'network');

    const cut = await receiver((response, request) => {
      response.writeHead(200, { 'content-length': '1000' });
      response.write('only part', () => request.socket.destroy());
    });
    const cutResult = await deliver(cut.url);
    assert.equal(cutResult.outcome, 'retry');
    assert.equal(cutResult.status, 200);
    assert.equal(cutResult.error?.code, 'network');

    const gone = await receiver((response) => response.end());
    await gone.close();
    const refused = await deliver(gone.url);
    assert.equal(refused.outcome, 'retry');
    assert.equal(refused.error?.code, 'network');
    assert.match(refused.error?.message ?? '', /ECONNREFUSED/);
  });

  test('a host name connects to the address its checked lookup returned', async () => {
    const named = await receiver((response) => response.writeHead(202).end());
    const looked: string[] = [];
    const resolve: TWebhookResolver = async (hostname) => {
      looked.push(hostname);
      if (hostname.startsWith('x')) return [{ address: '10.0.0.1', family: 4 }];
      return [{ address: '127.0.0.1', family: 4 }];
    };
    const result = await deliver(`http://receiver.example.com:${named.port}/hook`, { resolve });
    assert.equal(result.outcome, 'succeeded');
    assert.deepEqual(looked, ['receiver.example.com']);
    assert.equal(named.requests[0]?.headers.host, `receiver.example.com:${named.port}`);
    // A long host name in a refusal: the message stays within the attempts log's room.
    const longName = `${'x'.repeat(60)}.${'y'.repeat(60)}.example.com`;
    const refused = await deliver(`https://${longName}/hook`, { resolve, allowPrivateTargets: false });
    assert.equal(refused.error?.code, 'address_not_public');
    assert.equal(refused.error?.message.length, WEBHOOK_ERROR_MESSAGE_MAX_LENGTH);
    assert.ok(refused.error?.message.endsWith('…'));
  });

  test('HTTPS with a certificate that is not valid (self-signed) is not sent; it retries', async (t) => {
    let pems: { key: string; cert: string };
    const folder = mkdtempSync(join(tmpdir(), 'webhook-tls-'));
    try {
      execFileSync(
        'openssl',
        ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=127.0.0.1']
          .concat(['-addext', 'subjectAltName=IP:127.0.0.1'])
          .concat(['-keyout', join(folder, 'key.pem'), '-out', join(folder, 'cert.pem')]),
        { stdio: 'ignore' },
      );
      pems = {
        key: readFileSync(join(folder, 'key.pem'), 'utf8'),
        cert: readFileSync(join(folder, 'cert.pem'), 'utf8'),
      };
    } catch {
      return t.skip('openssl is not available to make a self-signed certificate');
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
    const selfSigned = await receiver((response) => response.writeHead(200).end(), { tls: pems });
    assert.match(selfSigned.url, /^https:/);
    const result = await deliver(selfSigned.url);
    assert.equal(result.outcome, 'retry');
    assert.equal(result.error?.code, 'certificate_invalid');
    assert.equal(selfSigned.requests.length, 0);
  });

  test('programmer errors throw: no secret', async () => {
    await assert.rejects(deliver('http://127.0.0.1:9/hook', { secrets: [] }));
  });
});
