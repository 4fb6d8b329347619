// The Partner API's access: disabled by default (every route 404), keys and profiles (a case for
// every route × profile, generated from the route table and the permission table), closed
// contracts, cross-Partner isolation, accounts and the taxpayer registry, billing.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { seedTenant } from '@ecf/db';
import { revokePartnerKey, updatePartner } from '@ecf/services';
import { PARTNER_KEY_PROFILES, profileHasPermission } from '@ecf/contract';
import { ZErrorResponse } from '@ecf/contract';
import { PARTNER_ROUTES, PARTNER_UPLOAD_ROUTE, type TPartnerRouteContract } from '@ecf/contract';
import { startTestApi, type TTestApi } from '../../test/test-api.ts';
import { freshRnc, loadRegistryWith, seedAccount, seedPartner } from '../../test/partner-support.ts';

/** A throwaway master key: webhook secrets and certificates are sealed with it. */
const MASTER_KEY = Buffer.alloc(32, 7).toString('base64');

let api: TTestApi;
let disabled: TTestApi;
before(async () => {
  [api, disabled] = await Promise.all([
    startTestApi({ PSFE_PARTNER_API_ENABLED: 'true', CERTIFICATE_MASTER_KEY: MASTER_KEY }),
    startTestApi(),
  ]);
});
after(async () => {
  await Promise.all([api.close(), disabled.close()]);
});

const ROUTES = Object.entries(PARTNER_ROUTES) as Array<[string, TPartnerRouteContract]>;

/** A URL of the route: the account's id, an unknown UUID for other ids, a fixed external id. */
function urlOf(route: { path: string }, accountId: string, query = ''): string {
  return (
    route.path
      .replace(':id', accountId)
      .replace(':externalTenantId', 'ext-matrix')
      .replace(/:[A-Za-z]+/g, () => randomUUID()) + query
  );
}

type TInjectMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS';
function call(
  target: TTestApi,
  method: string,
  url: string,
  options: { key?: string; body?: unknown; headers?: Record<string, string> } = {},
) {
  const hasBody = method !== 'GET' && method !== 'DELETE' && method !== 'OPTIONS';
  return target.app.inject({
    method: method as TInjectMethod,
    url,
    headers: {
      ...(options.key === undefined ? {} : { 'x-partner-key': options.key }),
      ...(hasBody ? { 'content-type': 'application/json' } : {}),
      ...options.headers,
    },
    ...(hasBody ? { payload: JSON.stringify(options.body ?? {}) } : {}),
  });
}

test('PSFE_PARTNER_API_ENABLED false (the default): every Partner route answers 404', async () => {
  const { keys } = await seedPartner(disabled.database);
  for (const [name, route] of [...ROUTES, ['upload', PARTNER_UPLOAD_ROUTE] as const]) {
    const response = await call(disabled, route.method, urlOf(route, randomUUID()), { key: keys.full });
    assert.equal(response.statusCode, 404, name);
    assert.equal(response.json().error.code, 'ROUTE_NOT_FOUND', name);
  }
  // And the document does not describe them.
  const document = (await disabled.app.inject({ method: 'GET', url: '/openapi.json' })).json();
  assert.ok(!Object.keys(document.paths).some((path) => path.startsWith('/partner/')));
});

test('every route × profile: the permission table decides (403 INSUFFICIENT_SCOPE without it)', async () => {
  const { partner, keys } = await seedPartner(api.database);
  const account = await seedAccount(api.database, partner.id);
  let checked = 0;
  for (const [name, route] of ROUTES) {
    const cases: Array<{ query: string; permission: TPartnerRouteContract['permission'] }> = [
      { query: '', permission: route.permission },
      ...(route.permissionWhen
        ? [
            {
              query: `?${new URLSearchParams(route.permissionWhen.query).toString()}`,
              permission: route.permissionWhen.permission,
            },
          ]
        : []),
    ];
    for (const { query, permission } of cases) {
      for (const profile of PARTNER_KEY_PROFILES) {
        const response = await call(api, route.method, urlOf(route, account.id, query), {
          key: keys[profile],
        });
        const label = `${name}${query} with ${profile} (${permission})`;
        if (profileHasPermission(profile, permission)) {
          assert.notEqual(response.statusCode, 401, `${label}: ${response.body}`);
          assert.ok(
            !(response.statusCode === 403 && response.json().error.code === 'INSUFFICIENT_SCOPE'),
            `${label}: ${response.body}`,
          );
          assert.ok(response.statusCode < 500, `${label}: ${response.body}`);
        } else {
          assert.equal(response.statusCode, 403, `${label}: ${response.body}`);
          const body = ZErrorResponse.parse(response.json());
          assert.equal(body.error.code, 'INSUFFICIENT_SCOPE', label);
          assert.equal(body.error.details.reason, 'missing_permission');
          assert.equal(body.error.details.requiredPermission, permission);
        }
        checked += 1;
      }
    }
  }
  assert.ok(checked >= ROUTES.length * PARTNER_KEY_PROFILES.length);
});

test('401 without a key, with an unknown key and with a revoked key; 403 PARTNER_INACTIVE when suspended', async () => {
  const { partner, keys } = await seedPartner(api.database);
  const url = '/partner/v1/fiscal-accounts';
  const missing = await call(api, 'GET', url);
  assert.equal(missing.statusCode, 401);
  assert.equal(missing.json().error.code, 'PARTNER_KEY_MISSING');
  const unknown = await call(api, 'GET', url, { key: 'ecfp_not-a-key' });
  assert.equal(unknown.json().error.code, 'PARTNER_KEY_INVALID');
  // A direct API key is no partner key.
  const { key: direct } = await import('../../test/test-api.ts').then((module) =>
    module.seedTenantWithKey(api.database),
  );
  assert.equal((await call(api, 'GET', url, { key: direct })).statusCode, 401);
  assert.equal((await call(api, 'GET', url, { key: keys.onboarding })).statusCode, 200);
  await revokePartnerKey({
    database: api.database,
    partnerId: partner.id,
    key: keys.onboarding.slice(0, 13),
  });
  const revoked = await call(api, 'GET', url, { key: keys.onboarding });
  assert.equal(revoked.statusCode, 401);
  assert.equal(revoked.json().error.code, 'PARTNER_KEY_INVALID');
  await updatePartner({ database: api.database, partnerId: partner.id, input: { status: 'suspended' } });
  const suspended = await call(api, 'GET', url, { key: keys.full });
  assert.equal(suspended.statusCode, 403);
  assert.equal(suspended.json().error.code, 'PARTNER_INACTIVE');
});

test("another Partner's account is FISCAL_ACCOUNT_NOT_FOUND on every account route, exactly like none", async () => {
  const mine = await seedPartner(api.database);
  const theirs = await seedPartner(api.database);
  const foreign = await seedAccount(api.database, theirs.partner.id);
  for (const [name, route] of ROUTES.filter(([, route]) => route.account)) {
    const other = await call(api, route.method, urlOf(route, foreign.id), { key: mine.keys.full, body: {} });
    const none = await call(api, route.method, urlOf(route, randomUUID()), { key: mine.keys.full, body: {} });
    assert.equal(other.statusCode, 404, `${name}: ${other.body}`);
    assert.equal(other.json().error.code, 'FISCAL_ACCOUNT_NOT_FOUND', name);
    assert.deepEqual(
      { ...other.json<object>(), correlationId: '' },
      { ...none.json<object>(), correlationId: '' },
      `${name}: another Partner's account answers as no account`,
    );
  }
  // The list shows only the Partner's own accounts.
  const list = await call(api, 'GET', '/partner/v1/fiscal-accounts', { key: mine.keys.full });
  assert.ok(!list.json().items.some((item: { id: string }) => item.id === foreign.id));
});

test('closed contracts: unknown properties, wrong types, bad ids and text limits are 400 INVALID_PARTNER_PAYLOAD with the path', async () => {
  const { partner, keys } = await seedPartner(api.database);
  const account = await seedAccount(api.database, partner.id);
  const key = keys.full;
  const profile = `/partner/v1/fiscal-accounts/${account.id}/profile`;
  const cases: Array<[string, string, unknown, string]> = [
    ['PATCH', profile, { fiscalEmail: 'a@b.example', colour: 'red' }, 'colour'],
    [
      'PATCH',
      profile,
      { printedRepresentationEmail: { production: 'yes' } },
      'printedRepresentationEmail.production',
    ],
    [
      'PATCH',
      profile,
      { printedRepresentationEmail: { production: true, sms: true } },
      'printedRepresentationEmail.sms',
    ],
    ['PATCH', profile, { phone: 8095550100 }, 'phone'],
    ['PATCH', profile, {}, ''],
    ['PUT', '/partner/v1/fiscal-accounts/by-external-id/x', { rnc: 123 }, 'rnc'],
    [
      'PUT',
      `/partner/v1/fiscal-accounts/by-external-id/${'x'.repeat(201)}`,
      { rnc: freshRnc() },
      'path.externalTenantId',
    ],
    ['GET', '/partner/v1/fiscal-accounts/not-a-uuid', undefined, 'path.id'],
    [
      'GET',
      `/partner/v1/fiscal-accounts/${account.id}/production/documents/nope`,
      undefined,
      'path.documentId',
    ],
    ['GET', '/partner/v1/fiscal-accounts?limit=many', undefined, 'query.limit'],
    ['GET', '/partner/v1/fiscal-accounts?sort=name', undefined, 'query.sort'],
    ['GET', '/partner/v1/billing/usage?month=2026-13', undefined, 'query.month'],
    [
      'POST',
      '/partner/v1/webhook-endpoints',
      { name: 'x'.repeat(201), url: 'https://hooks.example.com/a' },
      'name',
    ],
    [
      'POST',
      '/partner/v1/webhook-endpoints',
      { name: 'a', url: `https://hooks.example.com/${'a'.repeat(2048)}` },
      'url',
    ],
    [
      'POST',
      '/partner/v1/webhook-endpoints',
      { name: 'a', url: 'https://hooks.example.com/a', eventTypes: [] },
      'eventTypes',
    ],
    [
      'POST',
      '/partner/v1/webhook-endpoints',
      { name: 'a', url: 'https://hooks.example.com/a', eventTypes: 'all' },
      'eventTypes',
    ],
    [
      'POST',
      `/partner/v1/fiscal-accounts/${account.id}/testecf/documents`,
      { document: {}, extra: 1 },
      'extra',
    ],
    ['POST', `/partner/v1/fiscal-accounts/${account.id}/testecf/documents`, { document: 'E31' }, 'document'],
    [
      'POST',
      `/partner/v1/fiscal-accounts/${account.id}/certificate-upload-sessions`,
      { browserOrigin: 1 },
      'browserOrigin',
    ],
  ];
  for (const [method, url, body, path] of cases) {
    const response = await call(api, method, url, { key, body });
    assert.equal(response.statusCode, 400, `${method} ${url}: ${response.body}`);
    const error = ZErrorResponse.parse(response.json()).error;
    assert.equal(error.code, 'INVALID_PARTNER_PAYLOAD', `${method} ${url}`);
    assert.equal(error.details.path, path, `${method} ${url}: ${response.body}`);
  }
  // An Idempotency-Key over 200 characters, a correlation id over 200.
  const longKey = await call(api, 'POST', `/partner/v1/fiscal-accounts/${account.id}/production/annulments`, {
    key,
    body: { ranges: [{ type: 'E31', from: 'E310000000001', to: 'E310000000001' }] },
    headers: { 'idempotency-key': 'k'.repeat(201) },
  });
  assert.equal(longKey.json().error.code, 'INVALID_PARTNER_PAYLOAD');
  const longCorrelation = await call(api, 'GET', '/partner/v1/fiscal-accounts', {
    key,
    headers: { 'x-correlation-id': 'c'.repeat(201) },
  });
  assert.equal(longCorrelation.json().error.details.path, 'headers.x-correlation-id');
  // Prefer: wait outside 1–15.
  const wait = await call(api, 'POST', `/partner/v1/fiscal-accounts/${account.id}/testecf/documents`, {
    key,
    body: { document: {} },
    headers: { prefer: 'wait=16' },
  });
  assert.equal(wait.json().error.details.path, 'headers.prefer');
});

test('hostile input: malformed JSON, duplicate keys, huge bodies and non-JSON are refused before any work', async () => {
  const { partner, keys } = await seedPartner(api.database);
  const account = await seedAccount(api.database, partner.id);
  const url = `/partner/v1/fiscal-accounts/${account.id}/profile`;
  const send = (payload: string | Buffer, contentType = 'application/json') =>
    api.app.inject({
      method: 'PATCH',
      url,
      headers: { 'x-partner-key': keys.full, 'content-type': contentType },
      payload,
    });
  assert.equal((await send('{"phone": ')).json().error.code, 'INVALID_JSON');
  assert.equal(
    (await send('{"phone":"809-555-0100","phone":"809-555-0101"}')).json().error.details.reason,
    'duplicate_key',
  );
  const huge = await send(JSON.stringify({ address: 'x'.repeat(200_000) }));
  assert.equal(huge.statusCode, 400);
  assert.equal(huge.json().error.code, 'BODY_TOO_LARGE');
  assert.equal(
    (await send('phone=1', 'application/x-www-form-urlencoded')).json().error.code,
    'UNSUPPORTED_CONTENT_TYPE',
  );
});

test('PUT by external id: 201 then 200; registry codes; RNC held by another Partner or a direct account; link conflict', async () => {
  const { keys } = await seedPartner(api.database);
  const other = await seedPartner(api.database);
  const key = keys.onboarding;
  const active = freshRnc();
  const suspended = freshRnc();
  const direct = await seedTenant(api.database, { rnc: freshRnc() });
  await loadRegistryWith(api.database, active, `${suspended}:SUSPENDIDO`, direct.rnc);
  const put = (externalId: string, body: unknown, as = key) =>
    call(api, 'PUT', `/partner/v1/fiscal-accounts/by-external-id/${externalId}`, { key: as, body });

  const created = await put('cliente-1', {
    rnc: active,
    fiscalEmail: 'fe@cliente.example',
    printedRepresentationEmail: { testecf: true },
  });
  assert.equal(created.statusCode, 201, created.body);
  const account = created.json().fiscalAccount;
  assert.equal(account.externalTenantId, 'cliente-1');
  assert.equal(account.rnc, active);
  assert.equal(account.certification, null);
  assert.deepEqual(account.profile.printedRepresentationEmail, { production: false, testecf: true });
  assert.equal(account.profile.legalName, `CONTRIBUYENTE ${active} SRL`, 'the registry name by default');

  const again = await put('cliente-1', { rnc: active });
  assert.equal(again.statusCode, 200);
  assert.equal(again.json().fiscalAccount.id, account.id);

  const conflict = await put('cliente-1', { rnc: freshRnc() });
  assert.equal(conflict.statusCode, 409);
  assert.equal(conflict.json().error.code, 'ACCOUNT_LINK_CONFLICT');

  const absent = await put('cliente-2', { rnc: freshRnc() });
  assert.equal(absent.statusCode, 422);
  assert.equal(absent.json().error.code, 'RNC_NOT_IN_TAXAUTH_REGISTRY');
  const notActive = await put('cliente-3', { rnc: suspended });
  assert.equal(notActive.statusCode, 422);
  assert.equal(notActive.json().error.code, 'RNC_NOT_ACTIVE_IN_TAXAUTH');
  assert.equal(notActive.json().error.details.status, 'SUSPENDIDO');

  const heldByPartner = await put('otro', { rnc: active }, other.keys.full);
  assert.equal(heldByPartner.statusCode, 409);
  assert.equal(heldByPartner.json().error.code, 'RNC_NOT_AVAILABLE');
  const heldByDirect = await put('cliente-4', { rnc: direct.rnc });
  assert.equal(heldByDirect.json().error.code, 'RNC_NOT_AVAILABLE');
  assert.ok(!heldByDirect.body.includes(direct.id), 'never says who holds it');

  // List (limit/offset), get, status, profile.
  const list = await call(api, 'GET', '/partner/v1/fiscal-accounts?limit=1&offset=0', { key });
  assert.equal(list.json().items.length, 1);
  assert.equal(list.json().total, 1);
  const got = await call(api, 'GET', `/partner/v1/fiscal-accounts/${account.id}`, { key });
  assert.equal(got.json().fiscalAccount.id, account.id);
  const status = await call(api, 'GET', `/partner/v1/fiscal-accounts/${account.id}/status`, { key });
  assert.deepEqual(status.json().production, { state: 'not_requested', canEmit: false });
  assert.equal(status.json().certecf.certification, null);
  const patched = await call(api, 'PATCH', `/partner/v1/fiscal-accounts/${account.id}/profile`, {
    key,
    body: { printedRepresentationEmail: { production: true, testecf: false }, phone: '809-555-0177' },
  });
  assert.equal(patched.statusCode, 200, patched.body);
  assert.deepEqual(patched.json().fiscalAccount.profile.printedRepresentationEmail, {
    production: true,
    testecf: false,
  });
  assert.equal(patched.json().fiscalAccount.profile.phone, '809-555-0177');
  const sameRnc = await call(api, 'PATCH', `/partner/v1/fiscal-accounts/${account.id}/profile`, {
    key,
    body: { rnc: active },
  });
  assert.equal(sameRnc.statusCode, 200);
  const newRnc = await call(api, 'PATCH', `/partner/v1/fiscal-accounts/${account.id}/profile`, {
    key,
    body: { rnc: freshRnc() },
  });
  assert.equal(newRnc.statusCode, 409);
  assert.equal(newRnc.json().error.code, 'RNC_CHANGE_REQUIRES_RECERTIFICATION');
  const production = await call(api, 'GET', `/partner/v1/fiscal-accounts/${account.id}/production`, { key });
  assert.deepEqual(
    {
      state: production.json().state,
      canEmit: production.json().canEmit,
      environment: production.json().environment,
    },
    { state: 'not_requested', canEmit: false, environment: 'production' },
  );
});

test('rate limits: per Partner (all keys add up, a new key does not reset), per account, per permission, per IP; 429 with Retry-After', async () => {
  const limited = await startTestApi({
    PSFE_PARTNER_API_ENABLED: 'true',
    PARTNER_RATE_LIMITS: 'ip=40,partner=5,account=3,permission=10',
  });
  try {
    const { partner, keys } = await seedPartner(limited.database);
    const account = await seedAccount(limited.database, partner.id);
    const get = (key: string, url = `/partner/v1/fiscal-accounts/${account.id}`) =>
      call(limited, 'GET', url, { key });
    const statuses = [];
    for (let index = 0; index < 4; index += 1)
      statuses.push((await get(index % 2 === 0 ? keys.full : keys.onboarding)).statusCode);
    if (statuses.includes(200) && statuses.at(-1) === 200) return; // a window boundary passed: tolerated
    assert.deepEqual(statuses, [200, 200, 200, 429], 'the account limit (3): both keys add up');
    const refused = await get(keys.full);
    assert.equal(refused.json().error.details.scope, 'fiscal_account');
    const retryAfter = Number(refused.headers['retry-after']);
    assert.ok(retryAfter >= 1 && retryAfter <= 60);
    // A new key of the same Partner: the Partner's counter goes on (5 in all).
    const { createPartnerKey } = await import('@ecf/services');
    const fresh = (await createPartnerKey({ database: limited.database, partnerId: partner.id, name: 'new' }))
      .key;
    const list = await get(fresh, '/partner/v1/fiscal-accounts');
    assert.equal(list.statusCode, 429);
    assert.equal(list.json().error.details.scope, 'partner');
    // The address counts every request, a wrong key too.
    let ip = 0;
    for (let index = 0; index < 60 && ip === 0; index += 1) {
      const response = await call(limited, 'GET', '/partner/v1/fiscal-accounts', { key: 'ecfp_wrong' });
      if (response.statusCode === 429) ip = index;
    }
    assert.ok(ip > 0, 'the address limit');
    const rows = await limited.database.rateLimitCounter.findMany({
      where: { bucket: { startsWith: 'partner' } },
    });
    assert.ok(rows.some((row) => row.bucket === `partner:${partner.id}`));
    assert.ok(rows.some((row) => row.bucket === `partner-account:${account.id}`));
    assert.ok(rows.some((row) => row.bucket === `partner-permission:${partner.id}:fiscal-accounts:manage`));
  } finally {
    await limited.close();
  }
});

test('billing usage: accepted eCF of every account, by Dominican month; TesteCF never counted', async () => {
  const { partner, keys } = await seedPartner(api.database);
  const first = await seedAccount(api.database, partner.id);
  const second = await seedAccount(api.database, partner.id);
  const { seedDocument } = await import('@ecf/db');
  await seedDocument(api.database, {
    tenantId: first.id,
    environment: 'eCF',
    encf: 'E310000000001',
    status: 'accepted',
  });
  await seedDocument(api.database, {
    tenantId: second.id,
    environment: 'eCF',
    encf: 'E310000000002',
    status: 'accepted_conditional',
  });
  await seedDocument(api.database, {
    tenantId: second.id,
    environment: 'TesteCF',
    encf: 'E310000000003',
    status: 'accepted',
  });
  await seedDocument(api.database, {
    tenantId: second.id,
    environment: 'eCF',
    encf: 'E310000000004',
    status: 'rejected',
  });
  const usage = await call(api, 'GET', '/partner/v1/billing/usage', { key: keys.runtime });
  assert.equal(usage.statusCode, 200, usage.body);
  assert.equal(usage.json().accepted, 2);
  assert.equal(usage.json().quota, 1000);
  assert.equal(usage.json().timeZone, 'America/Santo_Domingo');
  assert.equal(usage.json().month, new Date(Date.now() - 4 * 3600_000).toISOString().slice(0, 7));
  const earlier = await call(api, 'GET', '/partner/v1/billing/usage?month=2020-01', { key: keys.runtime });
  assert.equal(earlier.json().accepted, 0);
});
