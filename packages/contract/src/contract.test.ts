// The contract package: browser-safe by construction (its sources import only each other and zod),
// and its lists consistent with one another.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import {
  DIRECT_WEBHOOK_EVENT_TYPES,
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
