// The TesteCF test inbox (issue 27) end to end on real servers: an inbox created by the use-case the
// portal calls, a test event delivered by the worker's use-case over real HTTP to the API's
// `POST /webhook-inbox/{token}` with private targets NOT allowed (the inbox exemption is what lets it
// through), the request kept and its signature checked as the receiver guide does; the route's
// refusals (unknown token 404 ErrorResponse, bad JSON 400, never 5xx), the cap of 100, and
// "Reintentar ahora" (a queued delivery made due now; one being sent is not touched).
import { randomBytes } from 'node:crypto';
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { seedTenant, type TAnyJobRequest, type TEnqueue } from '@ecf/db';
import {
  AppError,
  closeWebhookConnections,
  createCertificateKeyring,
  createWebhookInbox,
  findWebhookInboxRequests,
  isWebhookInboxUrl,
  purgeExpiredRecords,
  retryWebhookDeliveryNow,
  runWebhookDelivery,
  sendTestWebhook,
  signWebhookBody,
} from '@ecf/services';
import { startTestApi, type TTestApi } from '../test/test-api.ts';

const keyring = createCertificateKeyring({ currentKey: randomBytes(32).toString('base64') });
let api: TTestApi;
let origin: string;

function recordingEnqueue(): TEnqueue & { jobs: TAnyJobRequest[] } {
  const jobs: TAnyJobRequest[] = [];
  const enqueue = (async (requests: readonly TAnyJobRequest[]) => {
    jobs.push(...requests);
  }) as TEnqueue & { jobs: TAnyJobRequest[] };
  enqueue.jobs = jobs;
  return enqueue;
}

before(async () => {
  api = await startTestApi({ WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'false' });
  origin = (await api.app.listen({ host: '127.0.0.1', port: 0 })).replace(/\/$/, '');
});
after(async () => {
  await closeWebhookConnections();
  await api.close();
});

async function inbox() {
  const tenant = await seedTenant(api.database);
  const created = await createWebhookInbox({
    database: api.database,
    tenantId: tenant.id,
    environment: 'TesteCF',
    keyring,
    inboxBaseUrl: origin,
  });
  return { tenant, ...created };
}

const post = (path: string, body: string, headers: Record<string, string> = {}) =>
  fetch(`${origin}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
  });

test('a test event reaches the inbox over HTTP with private targets refused, and its signature checks', async () => {
  const { tenant, endpoint, inboxUrl, signingSecret } = await inbox();
  assert.equal(endpoint.url, inboxUrl);
  assert.match(inboxUrl, new RegExp(`^${origin}/webhook-inbox/[A-Za-z0-9_-]{43}$`));
  assert.equal(endpoint.name, 'Bandeja de prueba');
  assert.ok(endpoint.eventTypes.includes('document.state_changed'));
  const enqueue = recordingEnqueue();
  const { deliveryId, eventId } = await sendTestWebhook({
    database: api.database,
    tenantId: tenant.id,
    endpointId: endpoint.id,
    enqueue,
  });
  const result = await runWebhookDelivery({
    database: api.database,
    enqueue,
    deliveryId,
    keyring,
    now: () => new Date(),
    allowPrivateTargets: false,
    inboxBaseUrl: origin,
  });
  assert.equal(result.attempted && result.outcome, 'succeeded');
  assert.equal(result.attempted && result.responseStatus, 200);

  const found = await findWebhookInboxRequests({
    database: api.database,
    tenantId: tenant.id,
    endpointId: endpoint.id,
    keyring,
  });
  assert.ok(found);
  assert.equal(found.keepRequests, 100);
  assert.equal(found.requests.length, 1);
  const [request] = found.requests;
  assert.ok(request);
  assert.equal(request.headers['svc-event-id'], eventId);
  assert.equal(request.headers['svc-event-type'], 'webhook.test');
  assert.equal(request.headers['user-agent'], 'Svc-Webhooks/1.0');
  assert.equal((JSON.parse(request.body) as { id: string }).id, eventId);
  assert.equal(request.signature.valid, true);
  assert.equal(request.signature.valid && request.signature.secret, 'current');
  assert.equal(request.bodyTruncated, false);
  // The secret shown once is the one that signed.
  const header = request.headers['svc-signature'] ?? '';
  const t = Number(/t=(\d+)/.exec(header)?.[1]);
  assert.equal(
    signWebhookBody({ body: request.body, secrets: [signingSecret], timestampSeconds: t }),
    header,
  );

  // Another tenant does not see it; an ordinary endpoint is not an inbox.
  const other = await seedTenant(api.database);
  assert.equal(
    await findWebhookInboxRequests({
      database: api.database,
      tenantId: other.id,
      endpointId: endpoint.id,
      keyring,
    }),
    null,
  );
});

test('the exemption is the inbox URL only: without it the same delivery is refused as a private target', async () => {
  const { tenant, endpoint } = await inbox();
  const { deliveryId } = await sendTestWebhook({
    database: api.database,
    tenantId: tenant.id,
    endpointId: endpoint.id,
    enqueue: recordingEnqueue(),
  });
  const result = await runWebhookDelivery({
    database: api.database,
    enqueue: recordingEnqueue(),
    deliveryId,
    keyring,
    now: () => new Date(),
    allowPrivateTargets: false,
  });
  assert.equal(result.attempted && result.outcome, 'failed');
  const token = endpoint.url.slice(endpoint.url.lastIndexOf('/') + 1);
  for (const url of [
    `${origin}/webhook-inbox/${token}?x=1`,
    `${origin}/webhook-inbox/${token}/more`,
    `${origin}/webhook-inbox/../healthz`,
    `${origin}/webhook-inbox/short`,
    `${origin.replace(/:\d+$/, ':9')}/webhook-inbox/${token}`,
    `http://user:pw@${origin.slice('http://'.length)}/webhook-inbox/${token}`,
  ])
    assert.equal(isWebhookInboxUrl(url, origin), false, url);
  assert.equal(isWebhookInboxUrl(endpoint.url, origin), true);
  assert.equal(isWebhookInboxUrl(endpoint.url, undefined), false);
});

test('what the inbox refuses: unknown token 404 ErrorResponse, bad JSON 400, a retired endpoint 404; and the signature reasons', async () => {
  const unknown = await post(`/webhook-inbox/${'A'.repeat(43)}`, '{"a":1}');
  assert.equal(unknown.status, 404);
  const body = (await unknown.json()) as { ok: boolean; error: { code: string }; correlationId: string };
  assert.equal(body.ok, false);
  assert.equal(body.error.code, 'NOT_FOUND');
  assert.ok(body.correlationId);
  assert.equal((await post('/webhook-inbox/x', '{}')).status, 404);
  // A path parameter over the router's 100 characters: refused before routing, still an ErrorResponse.
  const overlong = await post(`/webhook-inbox/${'x'.repeat(300)}`, '{}');
  assert.equal(overlong.status, 400);
  assert.equal(((await overlong.json()) as { ok: boolean }).ok, false);

  const { tenant, endpoint, signingSecret } = await inbox();
  const path = new URL(endpoint.url).pathname;
  const badJson = await post(path, '{"a":');
  assert.equal(badJson.status, 400);
  assert.equal(((await badJson.json()) as { error: { code: string } }).error.code, 'INVALID_JSON');
  const notJson = await fetch(`${origin}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'text/plain' },
    body: 'x',
  });
  assert.ok(notJson.status >= 400 && notJson.status < 500);

  const now = Math.floor(Date.now() / 1000);
  const payload = '{"id":"x","type":"webhook.test","amount":1.10}';
  const signed = signWebhookBody({ body: payload, secrets: [signingSecret], timestampSeconds: now });
  const answers = await Promise.all([
    post(path, payload, { 'svc-signature': signed, cookie: 'session=secret' }),
    // One hex digit changed: always another digit (replacing it with 0 left a signature that began
    // with 0 valid, one run in sixteen).
    post(path, payload, {
      'svc-signature': signed.replace(/v1=(.)/, (_, digit: string) => `v1=${digit === '0' ? '1' : '0'}`),
    }),
    post(path, payload),
    post(path, payload, { 'svc-signature': 'v1=abc' }),
    post(path, payload, {
      'svc-signature': signWebhookBody({
        body: payload,
        secrets: [signingSecret],
        timestampSeconds: now - 600,
      }),
    }),
  ]);
  for (const answer of answers) assert.equal(answer.status, 200);
  const found = await findWebhookInboxRequests({
    database: api.database,
    tenantId: tenant.id,
    endpointId: endpoint.id,
    keyring,
  });
  const outcomes = new Set(
    found?.requests.map((request) => (request.signature.valid ? 'valid' : request.signature.reason)),
  );
  assert.deepEqual(
    [...outcomes].sort(),
    [
      'malformed_header',
      'missing_header',
      'no_matching_signature',
      'timestamp_out_of_tolerance',
      'valid',
    ].sort(),
  );
  // Credentials are not kept; the body is kept byte for byte (1.10 stays 1.10).
  assert.ok(found?.requests.every((request) => request.headers.cookie === undefined));
  assert.ok(found?.requests.every((request) => request.body === payload));

  await api.database.webhookEndpoint.update({ where: { id: endpoint.id }, data: { status: 'retired' } });
  assert.equal((await post(path, payload)).status, 404);

  await assert.rejects(
    createWebhookInbox({
      database: api.database,
      tenantId: tenant.id,
      environment: 'eCF',
      keyring,
      inboxBaseUrl: origin,
    }),
    (error: unknown) => error instanceof AppError && error.code === 'INVALID_REQUEST',
  );
});

test('an inbox keeps its newest 100 requests, and the daily purge those over 7 days', async () => {
  const { endpoint } = await inbox();
  const path = new URL(endpoint.url).pathname;
  for (let index = 0; index < 105; index += 1) assert.equal((await post(path, `{"n":${index}}`)).status, 200);
  const inboxRow = await api.database.webhookInbox.findUniqueOrThrow({ where: { endpointId: endpoint.id } });
  const kept = await api.database.webhookInboxRequest.findMany({
    where: { inboxId: inboxRow.id },
    orderBy: { id: 'asc' },
  });
  assert.equal(kept.length, 100);
  assert.equal(Buffer.from(kept[0]!.body).toString('utf8'), '{"n":5}');
  // The daily purge clears what is older than 7 days, in quiet inboxes too.
  await api.database.webhookInboxRequest.updateMany({
    where: { inboxId: inboxRow.id, id: { lte: kept[9]!.id } },
    data: { receivedAt: new Date(Date.now() - 8 * 24 * 3600_000) },
  });
  const purged = await purgeExpiredRecords({ database: api.database, before: new Date() });
  assert.equal(purged.webhookInboxRequests, 10);
  assert.equal(await api.database.webhookInboxRequest.count({ where: { inboxId: inboxRow.id } }), 90);
});

test('"Reintentar ahora": a queued delivery waiting for its retry is due now with its job; one being sent is not touched', async () => {
  const { tenant, endpoint } = await inbox();
  const { deliveryId } = await sendTestWebhook({
    database: api.database,
    tenantId: tenant.id,
    endpointId: endpoint.id,
    enqueue: recordingEnqueue(),
  });
  const later = new Date(Date.now() + 20 * 60_000);
  await api.database.webhookDelivery.update({
    where: { id: deliveryId },
    data: { attempts: 2, nextAttemptAt: later },
  });
  const enqueue = recordingEnqueue();
  const at = new Date();
  const retried = await retryWebhookDeliveryNow({
    database: api.database,
    tenantId: tenant.id,
    deliveryId,
    enqueue,
    now: () => at,
  });
  assert.equal(retried.status, 'queued');
  assert.equal(retried.nextAttemptAt.getTime(), at.getTime());
  assert.deepEqual(
    enqueue.jobs.map((job) => job.name),
    ['webhook.deliver'],
  );
  // The worker takes it now (with private targets refused: the inbox is allowed).
  const result = await runWebhookDelivery({
    database: api.database,
    enqueue: recordingEnqueue(),
    deliveryId,
    keyring,
    now: () => new Date(),
    allowPrivateTargets: false,
    inboxBaseUrl: origin,
  });
  assert.equal(result.attempted && result.attempt, 3);
  // Succeeded, running or failed: not retried now (409), and nothing is enqueued.
  for (const status of ['succeeded', 'running', 'failed'] as const) {
    await api.database.webhookDelivery.update({ where: { id: deliveryId }, data: { status } });
    const none = recordingEnqueue();
    await assert.rejects(
      retryWebhookDeliveryNow({ database: api.database, tenantId: tenant.id, deliveryId, enqueue: none }),
      (error: unknown) =>
        error instanceof AppError &&
        error.code === 'WEBHOOK_REPLAY_NOT_ALLOWED' &&
        (error.details as { status?: string }).status === status,
    );
    assert.equal(none.jobs.length, 0);
  }
  const other = await seedTenant(api.database);
  await assert.rejects(
    retryWebhookDeliveryNow({
      database: api.database,
      tenantId: other.id,
      deliveryId,
      enqueue: recordingEnqueue(),
    }),
    (error: unknown) => error instanceof AppError && error.code === 'NOT_FOUND',
  );
});
