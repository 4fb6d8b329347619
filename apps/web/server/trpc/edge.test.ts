// The portal's request edge (issue 25, server/trpc/http.ts + procedure-limits.ts) on real Requests
// against a real database: every input goes through the services' JSON reader under its procedure's
// declared limits, and a refusal reaches the page as a procedure's own AppError would.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createTRPCClient, httpBatchLink } from '@trpc/client';
import {
  contextOf,
  openPortalHarness,
  seedWorld,
  type TPortalHarness,
  type TWorld,
} from '../../test/portal-harness.ts';
import { validTryItJson } from '../../test/document-fixtures.ts';
import { failureOf } from '../../lib/trpc-errors.ts';
import type { AppRouter } from '../routers/root.ts';
import { handleTrpcRequest } from './http.ts';
import { MAX_BATCH_PROCEDURES } from '../../lib/trpc/batch.ts';

const ORIGIN = 'https://portal.example.do';
const JSON_POST = { 'content-type': 'application/json', origin: ORIGIN };
const MIB = 1024 * 1024;

let harness: TPortalHarness;
let world: TWorld;
before(async () => {
  harness = await openPortalHarness();
  world = await seedWorld(harness.database);
});
after(async () => {
  await harness.close();
});

type TRole = 'owner' | 'partnerAdmin';

function send(request: Request, role: TRole = 'owner'): Promise<Response> {
  return handleTrpcRequest(request, {
    publicOrigin: ORIGIN,
    createContext: () => Promise.resolve(contextOf(harness, world.sessions[role])),
  });
}

function post(path: string, body: BodyInit, headers: Record<string, string> = {}): Request {
  return new Request(`${ORIGIN}/api/trpc/${path}`, {
    method: 'POST',
    headers: { ...JSON_POST, ...headers },
    body,
    ...(body instanceof ReadableStream ? { duplex: 'half' } : {}),
  });
}

type TErrorItem = {
  error: {
    message: string;
    code: number;
    data: {
      code: string;
      httpStatus: number;
      path: string;
      appCode: string | null;
      details: Record<string, unknown> | null;
      fieldErrors: unknown;
      stack?: unknown;
    };
  };
};

/** The one error of a call (the first of a batch's array, all alike). */
async function errorOf(response: Response): Promise<TErrorItem['error']> {
  const body = (await response.json()) as TErrorItem | TErrorItem[];
  const item = Array.isArray(body) ? body[0] : body;
  assert.ok(item?.error, JSON.stringify(body));
  return item.error;
}

const WEBHOOK = {
  environment: 'TesteCF',
  name: 'ERP',
  url: 'http://127.0.0.1:9/hook',
  eventTypes: ['ecf.queued'],
};

async function webhookCount(): Promise<number> {
  return harness.database.webhookEndpoint.count({ where: { tenantId: world.tenant.id } });
}

test('a valid batched mutation passes the edge and runs (the baseline of the refusals below)', async () => {
  const before = await webhookCount();
  const response = await send(post('webhooks.create?batch=1', JSON.stringify({ 0: WEBHOOK })));
  assert.equal(response.status, 200, await response.clone().text());
  assert.equal(await webhookCount(), before + 1);
});

test('repeated member names are refused (INVALID_JSON duplicate_key), batched or not; nothing stored', async () => {
  const before = await webhookCount();
  const inner =
    '{"environment":"TesteCF","name":"A","name":"B","url":"http://127.0.0.1:9/h","eventTypes":["ecf.queued"]}';
  for (const [path, body, where] of [
    ['webhooks.create?batch=1', `{"0":${inner}}`, '0.name'],
    ['webhooks.create', inner, 'name'],
  ] as const) {
    const response = await send(post(path, body));
    assert.equal(response.status, 400, path);
    const error = await errorOf(response);
    assert.equal(error.data.appCode, 'INVALID_JSON');
    assert.equal(error.data.details?.reason, 'duplicate_key');
    assert.equal(error.data.details?.path, where);
    assert.equal(error.data.code, 'BAD_REQUEST');
    assert.equal(error.data.path, 'webhooks.create');
    assert.equal(error.data.stack, undefined);
  }
  assert.equal(await webhookCount(), before);
});

test('invalid UTF-8 bytes are refused (invalid_utf8 with the offset), never stored as U+FFFD', async () => {
  const before = await webhookCount();
  const head = new TextEncoder().encode('{"0":{"environment":"TesteCF","name":"A');
  const tail = new TextEncoder().encode('B","url":"http://127.0.0.1:9/h","eventTypes":["ecf.queued"]}}');
  const body = new Uint8Array([...head, 0xc3, 0x28, ...tail]);
  const response = await send(post('webhooks.create?batch=1', body));
  assert.equal(response.status, 400);
  const error = await errorOf(response);
  assert.equal(error.data.appCode, 'INVALID_JSON');
  assert.deepEqual(error.data.details, { reason: 'invalid_utf8', offset: head.length });
  assert.equal(await webhookCount(), before);
});

test('a lone surrogate escape (\\uD800) is refused as unsupported_character on its field', async () => {
  const before = await webhookCount();
  const body = `{"0":{"environment":"TesteCF","name":"A\\uD800B","url":"http://127.0.0.1:9/h","eventTypes":["ecf.queued"]}}`;
  const response = await send(post('webhooks.create?batch=1', body));
  assert.equal(response.status, 400);
  const error = await errorOf(response);
  assert.equal(error.data.appCode, 'INVALID_REQUEST');
  assert.deepEqual(error.data.details, {
    reason: 'unsupported_character',
    path: 'name',
    codePoint: 'U+D800',
  });
  assert.equal(await webhookCount(), before);
});

test('U+0000 in a portal webhook name or URL is 400 unsupported_character (was 500), nothing stored', async () => {
  const before = await webhookCount();
  for (const field of ['name', 'url'] as const) {
    const input = { ...WEBHOOK, [field]: `${WEBHOOK[field]}\u0000x` };
    const response = await send(post('webhooks.create?batch=1', JSON.stringify({ 0: input })));
    assert.equal(response.status, 400, field);
    const error = await errorOf(response);
    assert.equal(error.data.appCode, 'INVALID_REQUEST', field);
    assert.deepEqual(error.data.details, {
      reason: 'unsupported_character',
      path: field,
      codePoint: 'U+0000',
    });
  }
  assert.equal(await webhookCount(), before);
});

test('U+0000 in the account profile legalName or address is 400 unsupported_character, nothing stored', async () => {
  const profile = {
    legalName: 'Comercial Caribe SRL',
    tradeName: '',
    address: 'Av. Churchill 100',
    phones: ['809-555-0101'],
    fiscalEmail: 'facturas@caribe.example',
  };
  const stored = await harness.database.tenant.findUniqueOrThrow({ where: { id: world.tenant.id } });
  for (const field of ['legalName', 'address'] as const) {
    const input = { ...profile, [field]: `${profile[field]}\u0000` };
    const response = await send(post('account.updateProfile?batch=1', JSON.stringify({ 0: input })));
    assert.equal(response.status, 400, field);
    const error = await errorOf(response);
    assert.equal(error.data.appCode, 'INVALID_REQUEST');
    assert.deepEqual(error.data.details, {
      reason: 'unsupported_character',
      path: field,
      codePoint: 'U+0000',
    });
  }
  const after = await harness.database.tenant.findUniqueOrThrow({ where: { id: world.tenant.id } });
  assert.equal(after.legalName, stored.legalName);
  assert.equal(after.address, stored.address);
});

test('U+0000 in a Partner-portal write (webhook endpoint name) is 400 unsupported_character, nothing stored', async () => {
  const count = () => harness.database.webhookEndpoint.count({ where: { partnerId: world.partner.id } });
  const before = await count();
  const input = { name: 'ERP\u0000', url: 'http://127.0.0.1:9/partner', eventTypes: 'all' };
  const response = await send(
    post('partner.createEndpoint?batch=1', JSON.stringify({ 0: input })),
    'partnerAdmin',
  );
  assert.equal(response.status, 400);
  const error = await errorOf(response);
  assert.equal(error.data.appCode, 'INVALID_REQUEST');
  assert.deepEqual(error.data.details, {
    reason: 'unsupported_character',
    path: 'name',
    codePoint: 'U+0000',
  });
  assert.equal(await count(), before);
});

test("the page's own client (httpBatchLink) reads an edge refusal as a procedure's AppError", async () => {
  const client = createTRPCClient<AppRouter>({
    links: [
      httpBatchLink({
        url: `${ORIGIN}/api/trpc`,
        headers: { origin: ORIGIN },
        fetch: (url, init) => send(new Request(url, init as RequestInit)),
      }),
    ],
  });
  const before = await webhookCount();
  const refused = await client.webhooks.create
    .mutate({ ...WEBHOOK, environment: 'TesteCF', name: 'A\u0000' } as never)
    .then(
      () => assert.fail('expected a refusal'),
      (error: unknown) => failureOf(error),
    );
  assert.equal(refused.appCode, 'INVALID_REQUEST');
  assert.equal(refused.details?.reason, 'unsupported_character');
  assert.equal(refused.details?.path, 'name');
  // The form shows it on the field, as it shows zod's messages.
  assert.match(refused.fieldErrors.name ?? '', /carácter no admitido/);
  assert.equal(await webhookCount(), before);
  // Batched queries with inputs (GET) still run through the edge.
  const [members, account] = await Promise.all([client.members.list.query(), client.account.get.query()]);
  assert.equal(members.members.length, 4);
  assert.ok(account);
});

test('a batch checks each input against its own procedure: a long name is refused though Try it allows long text', async () => {
  const longName = 'x'.repeat(20_000);
  const body = JSON.stringify({ 0: { json: validTryItJson() }, 1: { ...WEBHOOK, name: longName } });
  const response = await send(post('tryIt.preflight,webhooks.create?batch=1', body));
  assert.equal(response.status, 400);
  const items = (await response.json()) as TErrorItem[];
  assert.equal(items.length, 2);
  assert.deepEqual(
    items.map((item) => item.error.data.path),
    ['tryIt.preflight', 'webhooks.create'],
  );
  assert.equal(items[1]?.error.data.appCode, 'INVALID_REQUEST');
  assert.deepEqual(items[1]?.error.data.details, { reason: 'string_too_long', path: 'name', limit: 16_384 });
  // Alone, Try it's document passes its own limits.
  const alone = await send(
    post('tryIt.preflight?batch=1', JSON.stringify({ 0: { json: validTryItJson() } })),
  );
  assert.equal(alone.status, 200, await alone.clone().text());
});

test('GET input: repeated member names are refused, batched or not; a repeated input parameter too', async () => {
  const memberId = world.target.membershipId ?? '';
  const duplicated = `{"membershipId":"${memberId}","membershipId":"${memberId}"}`;
  for (const query of [
    `members.get?input=${encodeURIComponent(duplicated)}`,
    `members.get?batch=1&input=${encodeURIComponent(`{"0":${duplicated}}`)}`,
  ]) {
    const response = await send(
      new Request(`${ORIGIN}/api/trpc/${query}`, { headers: { 'sec-fetch-site': 'same-origin' } }),
    );
    assert.equal(response.status, 400, query);
    const error = await errorOf(response);
    assert.equal(error.data.appCode, 'INVALID_JSON', query);
    assert.equal(error.data.details?.reason, 'duplicate_key', query);
  }
  const twice = await send(
    new Request(`${ORIGIN}/api/trpc/members.get?input=%7B%7D&input=%7B%7D`, {
      headers: { 'sec-fetch-site': 'same-origin' },
    }),
  );
  assert.equal(twice.status, 400);
  assert.equal((await errorOf(twice)).data.details?.reason, 'duplicate_parameter');
  const invalidUtf8 = await send(
    new Request(`${ORIGIN}/api/trpc/members.get?input=%7B%22membershipId%22%3A%22%C3%28%22%7D`, {
      headers: { 'sec-fetch-site': 'same-origin' },
    }),
  );
  assert.equal(invalidUtf8.status, 400);
  assert.equal((await errorOf(invalidUtf8)).data.details?.reason, 'invalid_utf8');
  const valid = await send(
    new Request(
      `${ORIGIN}/api/trpc/members.get?input=${encodeURIComponent(JSON.stringify({ membershipId: memberId }))}`,
      {
        headers: { 'sec-fetch-site': 'same-origin' },
      },
    ),
  );
  assert.equal(valid.status, 200, await valid.clone().text());
});

/** A lazily generated JSON body of `totalBytes` (never allocated), counting the bytes pulled from it. */
function hugeBody(totalBytes: number) {
  const chunk = new Uint8Array(64 * 1024).fill(0x61);
  const head = new TextEncoder().encode('{"0":{"json":"');
  const counter = { pulled: 0, cancelled: false };
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        const next = counter.pulled === 0 ? head : chunk;
        if (counter.pulled >= totalBytes) return controller.close();
        counter.pulled += next.byteLength;
        controller.enqueue(next);
      },
      cancel() {
        counter.cancelled = true;
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, counter };
}

test('a 300 MB streamed body is refused at the procedure cap without being read (memory flat)', async (context) => {
  for (const [path, cap] of [
    ['tryIt.emit?batch=1', 6 * MIB],
    ['webhooks.create?batch=1', 64 * 1024],
  ] as const) {
    const { stream, counter } = hugeBody(300 * 1000 * 1000);
    const rssBefore = process.memoryUsage().rss;
    const response = await send(post(path, stream));
    const grownMib = (process.memoryUsage().rss - rssBefore) / MIB;
    assert.equal(response.status, 400, path);
    const error = await errorOf(response);
    assert.equal(error.data.appCode, 'BODY_TOO_LARGE', path);
    assert.deepEqual(error.data.details, { limitBytes: cap });
    assert.ok(counter.pulled <= cap + 2 * 64 * 1024, `${path}: pulled ${counter.pulled} bytes`);
    assert.equal(counter.cancelled, true, path);
    assert.ok(grownMib < 64, `${path}: RSS grew ${grownMib.toFixed(1)} MiB`);
    context.diagnostic(
      `${path}: ${counter.pulled} of 300,000,000 bytes pulled, RSS +${grownMib.toFixed(1)} MiB`,
    );
  }
  // A declared Content-Length over the cap is refused before a byte is read.
  const { stream, counter } = hugeBody(300 * 1000 * 1000);
  const declared = await send(
    post('webhooks.create?batch=1', stream, { 'content-length': String(300_000_000) }),
  );
  assert.equal(declared.status, 400);
  assert.equal((await errorOf(declared)).data.appCode, 'BODY_TOO_LARGE');
  assert.ok(counter.pulled <= 64 * 1024, `pulled ${counter.pulled} bytes`);
});

test('an unknown procedure is 404 ROUTE_NOT_FOUND and its body is not read', async () => {
  const { stream, counter } = hugeBody(300 * 1000 * 1000);
  const response = await send(post('nothing.here?batch=1', stream));
  assert.equal(response.status, 404);
  const error = await errorOf(response);
  assert.equal(error.data.appCode, 'ROUTE_NOT_FOUND');
  assert.equal(error.data.code, 'NOT_FOUND');
  assert.ok(counter.pulled <= 64 * 1024, `pulled ${counter.pulled} bytes`);
  // Inherited names of a plain object are not procedures either.
  const inherited = await send(post('constructor', '{}'));
  assert.equal(inherited.status, 404);
});

test(
  'a body that stalls is cut at the procedure time limit (REQUEST_TIMEOUT body_timeout)',
  { timeout: 30_000 },
  async () => {
    const before = await webhookCount();
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"0":{"environment":"TesteCF",'));
      },
      pull() {
        return new Promise(() => undefined);
      },
    });
    const started = Date.now();
    const response = await send(post('webhooks.create?batch=1', stream));
    const elapsed = Date.now() - started;
    assert.equal(response.status, 400);
    const error = await errorOf(response);
    assert.equal(error.data.appCode, 'REQUEST_TIMEOUT');
    assert.deepEqual(error.data.details, { reason: 'body_timeout', timeoutMs: 10_000 });
    assert.ok(elapsed >= 9_900 && elapsed < 15_000, `cut after ${elapsed} ms`);
    assert.equal(await webhookCount(), before);
  },
);

test('a batch naming more than MAX_BATCH_PROCEDURES procedures is refused before any runs', async () => {
  const names = (count: number) => Array.from({ length: count }, () => 'members.list').join(',');
  const get = (count: number) =>
    new Request(`${ORIGIN}/api/trpc/${names(count)}?batch=1&input=%7B%7D`, {
      headers: { 'sec-fetch-site': 'same-origin' },
    });
  const allowed = await send(get(MAX_BATCH_PROCEDURES));
  assert.equal(allowed.status, 200);
  const refused = await send(get(200));
  assert.equal(refused.status, 400);
  const items = (await refused.json()) as TErrorItem[];
  assert.equal(items.length, 200);
  assert.equal(items[0]?.error.data.appCode, 'INVALID_REQUEST');
  assert.deepEqual(items[0]?.error.data.details, {
    reason: 'batch_too_large',
    limit: MAX_BATCH_PROCEDURES,
    given: 200,
  });
});
