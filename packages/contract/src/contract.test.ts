// The contract package: browser-safe by construction (its sources import only each other and zod),
// and its lists consistent with one another.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import {
  CERTIFICATE_CHECK_ERRORS,
  DIRECT_WEBHOOK_EVENT_TYPES,
  ECF_TYPES,
  ERROR_STATUS,
  errorCodeRegistry,
  PARTNER_PERMISSION_NAMES,
  PARTNER_ROUTES,
  permissionsOfProfile,
  profileHasPermission,
  profilesWithPermission,
  ROUTES,
  type TErrorCode,
  ZIssuedListQuery,
  ZReceivedApprovalListQuery,
  ZReceivedListQuery,
  expandWebhookEventTypes,
  isSubscribableWebhookEventType,
  OUTAGE_WEBHOOK_EVENT_TYPES,
  PARTNER_KEY_PROFILES,
  PARTNER_ONLY_WEBHOOK_EVENT_TYPES,
  PARTNER_WEBHOOK_EVENT_TYPES,
  WEBHOOK_EVENT_TYPES,
} from './index.ts';

const SOURCES = path.join(import.meta.dirname);

test('the sources import only each other and zod: nothing of Node, the database or our other packages', () => {
  const outside: string[] = [];
  for (const file of readdirSync(SOURCES).filter((name) => /\.ts$/.test(name) && !/\.test\.ts$/.test(name))) {
    const text = readFileSync(path.join(SOURCES, file), 'utf8');
    for (const [, specifier] of text.matchAll(/\bfrom\s+['"]([^'"]+)['"]/g))
      if (specifier !== undefined && !specifier.startsWith('./') && specifier !== 'zod')
        outside.push(`${file}: ${specifier}`);
  }
  assert.deepEqual(outside, []);
});

test('every list names known event types once; the Partner-only name is not a direct one', () => {
  const known = new Set<string>(WEBHOOK_EVENT_TYPES);
  assert.equal(known.size, WEBHOOK_EVENT_TYPES.length);
  for (const list of [
    DIRECT_WEBHOOK_EVENT_TYPES,
    PARTNER_WEBHOOK_EVENT_TYPES,
    PARTNER_ONLY_WEBHOOK_EVENT_TYPES,
    OUTAGE_WEBHOOK_EVENT_TYPES,
  ]) {
    assert.equal(new Set(list).size, list.length);
    assert.deepEqual(
      list.filter((type) => !known.has(type)),
      [],
    );
  }
  for (const type of PARTNER_ONLY_WEBHOOK_EVENT_TYPES) {
    assert.ok((PARTNER_WEBHOOK_EVENT_TYPES as readonly string[]).includes(type));
    assert.equal(isSubscribableWebhookEventType(type), false);
  }
  assert.equal(isSubscribableWebhookEventType('webhook.test'), false, 'a test goes only to its endpoint');
  assert.deepEqual([...PARTNER_KEY_PROFILES], ['full', 'onboarding', 'runtime', 'webhooks']);
});

test("'all' is the types that exist now; a list is deduplicated and sorted", () => {
  assert.deepEqual(expandWebhookEventTypes('all'), [...DIRECT_WEBHOOK_EVENT_TYPES].sort());
  assert.deepEqual(expandWebhookEventTypes(['ecf.queued', 'annulment.state_changed', 'ecf.queued']), [
    'annulment.state_changed',
    'ecf.queued',
  ]);
  assert.deepEqual(
    expandWebhookEventTypes('all', PARTNER_WEBHOOK_EVENT_TYPES),
    [...PARTNER_WEBHOOK_EVENT_TYPES].sort(),
  );
});

test('the error registry: every code has a status of the spec and an English sentence; the operations that may answer it', () => {
  const registry = errorCodeRegistry();
  assert.equal(registry.length, Object.keys(ERROR_STATUS).length);
  for (const entry of registry) {
    assert.ok(
      [400, 401, 402, 403, 404, 409, 410, 422, 423, 428, 429, 500, 502, 503].includes(entry.status),
      entry.code,
    );
    assert.match(entry.message, /^[A-Z`].*\.$/, `${entry.code}: one sentence`);
  }
  const byCode = new Map(registry.map((entry) => [entry.code, entry]));
  const everyOperation = [...Object.keys(ROUTES), ...Object.keys(PARTNER_ROUTES), 'uploadCertificate'];
  // Every operation may fail unexpectedly; only the upload answers the certificate checks to a Partner.
  assert.deepEqual(
    everyOperation.filter((name) => !byCode.get('INTERNAL_ERROR')?.operations.includes(name)),
    ['uploadCertificatePreflight'].filter((name) => everyOperation.includes(name)),
  );
  for (const code of CERTIFICATE_CHECK_ERRORS)
    assert.ok(byCode.get(code)?.operations.includes('uploadCertificate'), code);
  assert.deepEqual(
    byCode.get('API_KEY_MISSING')?.operations.filter((name) => name in PARTNER_ROUTES),
    [],
  );
  assert.equal(byCode.get('SUBMISSION_RATE_LIMITED' as TErrorCode), undefined);
});

test('the Partner permission table: full holds every permission, each limited profile what the table gives it', () => {
  for (const permission of PARTNER_PERMISSION_NAMES) assert.ok(profileHasPermission('full', permission));
  assert.deepEqual(permissionsOfProfile('webhooks'), ['webhooks:manage']);
  assert.deepEqual(profilesWithPermission('production:read'), ['full', 'onboarding', 'runtime']);
  for (const route of Object.values(PARTNER_ROUTES))
    assert.ok(PARTNER_PERMISSION_NAMES.includes(route.permission), route.path);
});

test('the list queries: a type as E31 or 31, dates in order, paging text, unknown members refused', () => {
  assert.deepEqual(ZIssuedListQuery.parse({ type: 'E31', limit: '20' }), { type: 31, limit: 20 });
  assert.equal(ZIssuedListQuery.safeParse({ type: 'E30' }).success, false);
  assert.equal(
    ZIssuedListQuery.safeParse({ issueDateFrom: '2026-02-01', issueDateTo: '2026-01-31' }).success,
    false,
  );
  assert.equal(ZReceivedListQuery.safeParse({ limit: '101' }).success, false);
  assert.equal(ZReceivedApprovalListQuery.safeParse({ colour: 'red' }).success, false);
  assert.deepEqual(ZReceivedListQuery.parse({ type: '47', group: 'pending_approval' }), {
    type: 47,
    group: 'pending_approval',
  });
  assert.deepEqual(
    [...ECF_TYPES].map((type) => ZReceivedListQuery.parse({ type }).type),
    ECF_TYPES.map(Number),
  );
});
