// The tRPC endpoint's request rules (server/trpc/http.ts) on real Requests, with a real session in
// the database: a mutation needs POST, JSON and the portal's own origin, or nothing happens.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { contextOf, openPortalHarness, seedWorld, type TPortalHarness } from '../../test/portal-harness.ts';
import { handleTrpcRequest } from './http.ts';

const ORIGIN = 'https://portal.example.do';
let harness: TPortalHarness;
before(async () => {
  harness = await openPortalHarness();
});
after(async () => {
  await harness.close();
});

/** Signs the owner out everywhere through the endpoint, as a browser would (or would not) ask. */
async function signOutEverywhere(init: { method?: string; headers?: Record<string, string>; body?: string }) {
  const world = await seedWorld(harness.database);
  const sessionId = world.sessions.owner?.sessionId ?? '';
  const response = await handleTrpcRequest(
    new Request(`${ORIGIN}/api/trpc/session.signOutEverywhere?batch=1`, {
      method: init.method ?? 'POST',
      headers: init.headers ?? {},
      // What the portal's client (httpBatchLink) sends for a mutation without input.
      ...(init.method === 'GET' || init.method === 'PUT' ? {} : { body: init.body ?? '{}' }),
    }),
    { publicOrigin: ORIGIN, createContext: () => Promise.resolve(contextOf(harness, world.sessions.owner)) },
  );
  const session = await harness.database.portalSession.findUniqueOrThrow({ where: { id: sessionId } });
  return { status: response.status, body: await response.text(), revoked: session.revokedAt !== null };
}

const JSON_HEADERS = { 'content-type': 'application/json' };

test('a same-origin JSON POST runs the mutation', async () => {
  const answer = await signOutEverywhere({ headers: { ...JSON_HEADERS, origin: ORIGIN } });
  assert.equal(answer.status, 200, answer.body);
  assert.equal(answer.revoked, true);
  const fetchMetadata = await signOutEverywhere({
    headers: { ...JSON_HEADERS, 'sec-fetch-site': 'same-origin' },
  });
  assert.equal(fetchMetadata.status, 200, fetchMetadata.body);
});

test('a POST from another origin is refused and changes nothing', async () => {
  for (const headers of [
    { ...JSON_HEADERS, origin: 'https://evil.example' },
    { ...JSON_HEADERS, origin: 'http://portal.example.do' },
    { ...JSON_HEADERS, origin: 'null' },
    { ...JSON_HEADERS, 'sec-fetch-site': 'cross-site' },
    { ...JSON_HEADERS, origin: 'https://evil.example', 'sec-fetch-site': 'same-origin' },
    // Neither header: not a browser on this origin.
    JSON_HEADERS,
  ]) {
    const answer = await signOutEverywhere({ headers });
    assert.equal(answer.status, 403, JSON.stringify(headers));
    const [item] = JSON.parse(answer.body) as { error: { data: { appCode: string } } }[];
    assert.equal(item?.error.data.appCode, 'FORBIDDEN', JSON.stringify(headers));
    assert.equal(answer.revoked, false, JSON.stringify(headers));
  }
});

test('a mutation sent with GET is refused and changes nothing', async () => {
  const answer = await signOutEverywhere({
    method: 'GET',
    headers: { origin: ORIGIN, 'sec-fetch-site': 'same-origin' },
  });
  assert.equal(answer.status, 405);
  assert.equal(answer.revoked, false);
});

test('a POST that is not JSON (a form, multipart, text) is refused (UNSUPPORTED_CONTENT_TYPE) and changes nothing', async () => {
  for (const contentType of [
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=x',
    'text/plain',
  ]) {
    const answer = await signOutEverywhere({
      headers: { 'content-type': contentType, origin: ORIGIN },
      body: '',
    });
    // The API's answer to a body that is not JSON: 400 UNSUPPORTED_CONTENT_TYPE, shaped as a procedure's error.
    assert.equal(answer.status, 400, contentType);
    const [item] = JSON.parse(answer.body) as { error: { data: { appCode: string; path: string } } }[];
    assert.equal(item?.error.data.appCode, 'UNSUPPORTED_CONTENT_TYPE', contentType);
    assert.equal(item.error.data.path, 'session.signOutEverywhere');
    assert.equal(answer.revoked, false, contentType);
  }
});

test('other methods are refused; a cross-site GET of a query is refused', async () => {
  assert.equal(
    (await signOutEverywhere({ method: 'PUT', headers: { ...JSON_HEADERS, origin: ORIGIN } })).status,
    405,
  );
  const world = await seedWorld(harness.database);
  const response = await handleTrpcRequest(
    new Request(`${ORIGIN}/api/trpc/members.list`, { headers: { 'sec-fetch-site': 'cross-site' } }),
    { publicOrigin: ORIGIN, createContext: () => Promise.resolve(contextOf(harness, world.sessions.owner)) },
  );
  assert.equal(response.status, 403);
  const sameOrigin = await handleTrpcRequest(
    new Request(`${ORIGIN}/api/trpc/members.list`, { headers: { 'sec-fetch-site': 'same-origin' } }),
    { publicOrigin: ORIGIN, createContext: () => Promise.resolve(contextOf(harness, world.sessions.owner)) },
  );
  assert.equal(sameOrigin.status, 200);
  const body = (await sameOrigin.json()) as { result: { data: { members: unknown[] } } };
  assert.equal(body.result.data.members.length, 4);
});

test('errors carry the field messages of the zod schema and never a stack', async () => {
  const world = await seedWorld(harness.database);
  const response = await handleTrpcRequest(
    new Request(`${ORIGIN}/api/trpc/invitations.create`, {
      method: 'POST',
      headers: { ...JSON_HEADERS, origin: ORIGIN },
      body: JSON.stringify({ email: 'no es un correo', role: 'jefe' }),
    }),
    { publicOrigin: ORIGIN, createContext: () => Promise.resolve(contextOf(harness, world.sessions.owner)) },
  );
  assert.equal(response.status, 400);
  const body = (await response.json()) as { error: { data: Record<string, unknown> } };
  assert.deepEqual(body.error.data.fieldErrors, {
    email: 'Escriba un correo electrónico válido.',
    role: 'Elija un rol.',
  });
  assert.equal(body.error.data.stack, undefined);
});
