import assert from 'node:assert/strict';
import { test } from 'node:test';
import { TokenCache, type TTaxauthToken } from './token-cache.ts';

function tokenAt(name: string, nowMs: number, lifetimeMs: number, marginMs: number): TTaxauthToken {
  return {
    token: name,
    expira: '',
    expiresAt: new Date(nowMs + lifetimeMs),
    refreshAt: new Date(nowMs + lifetimeMs - marginMs),
  };
}

test('single-flight: concurrent callers share one authentication; later callers reuse the token', async () => {
  let clock = 0;
  const cache = new TokenCache(() => new Date(clock));
  let calls = 0;
  const authenticate = async () => {
    calls += 1;
    await new Promise((resolve) => setTimeout(resolve, 20));
    return tokenAt(`t${calls}`, clock, 3_600_000, 300_000);
  };
  const tokens = await Promise.all(Array.from({ length: 10 }, () => cache.get('a', authenticate)));
  assert.equal(calls, 1);
  assert.ok(tokens.every((token) => token.token === 't1'));
  clock = 3_600_000 - 300_001;
  assert.equal((await cache.get('a', authenticate)).token, 't1');
  clock = 3_600_000 - 300_000;
  assert.equal((await cache.get('a', authenticate)).token, 't2');
  assert.equal(calls, 2);
});

test('keys are separate; a failure is not cached; invalidate only drops the refused token', async () => {
  const cache = new TokenCache(() => new Date(0));
  let calls = 0;
  const failing = async (): Promise<TTaxauthToken> => {
    calls += 1;
    throw new Error('down');
  };
  await assert.rejects(cache.get('a', failing), /down/);
  await assert.rejects(cache.get('a', failing), /down/);
  assert.equal(calls, 2);
  const a = await cache.get('a', async () => tokenAt('ta', 0, 1000, 10));
  const b = await cache.get('b', async () => tokenAt('tb', 0, 1000, 10));
  assert.notEqual(a.token, b.token);
  cache.invalidate('a', 'not-the-cached-one');
  assert.equal((await cache.get('a', async () => tokenAt('other', 0, 1000, 10))).token, 'ta');
  cache.invalidate('a', 'ta');
  assert.equal((await cache.get('a', async () => tokenAt('ta2', 0, 1000, 10))).token, 'ta2');
});

test('a failed refresh inside the margin falls back to the still-valid token, not after expiry', async () => {
  let clock = 0;
  const cache = new TokenCache(() => new Date(clock));
  await cache.get('a', async () => tokenAt('t1', 0, 1000, 100));
  clock = 950;
  const down = async (): Promise<TTaxauthToken> => {
    throw new Error('down');
  };
  assert.equal((await cache.get('a', down)).token, 't1');
  clock = 1000;
  await assert.rejects(cache.get('a', down), /down/);
});
