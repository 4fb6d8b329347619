// The development stack says what is true (issue 25 item 10): a `.env` copied from `.env.example`
// runs the same stack as no `.env` at all, and scripts/up.sh's banner prints the Partner API's key
// and example only when the Partner API is on.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

const ROOT = path.join(import.meta.dirname, '..', '..');

/** `.env.example` as name → value (quotes removed). */
function exampleValues(): Map<string, string> {
  const values = new Map<string, string>();
  for (const line of readFileSync(path.join(ROOT, '.env.example'), 'utf8').split('\n')) {
    const match = /^([A-Z][A-Z0-9_]*)=(.*)$/.exec(line);
    if (!match) continue;
    values.set(match[1]!, match[2]!.replace(/^"(.*)"$/, '$1'));
  }
  return values;
}

/** Each `NAME="${NAME:-default}"` of scripts/up.sh, in order, with `$OTHER` resolved from those before it. */
function upDefaults(): Map<string, string> {
  const script = readFileSync(path.join(ROOT, 'scripts', 'up.sh'), 'utf8');
  const resolved = new Map<string, string>();
  for (const match of script.matchAll(/\b([A-Z][A-Z0-9_]*)="\$\{\1:-(.*?)\}"/g)) {
    const value = match[2]!.replace(/\$([A-Z][A-Z0-9_]*)/g, (_, name: string) => {
      const known = resolved.get(name);
      assert.ok(known !== undefined, `up.sh: ${match[1]} refers to $${name} before it is set`);
      return known;
    });
    resolved.set(match[1]!, value);
  }
  return resolved;
}

/** The secrets up.sh generates into .data/ when they are unset or empty (`if [ -z "${NAME:-}" ]`). */
function generatedSecrets(): string[] {
  const script = readFileSync(path.join(ROOT, 'scripts', 'up.sh'), 'utf8');
  return [...script.matchAll(/if \[ -z "\$\{([A-Z][A-Z0-9_]*):-\}" \]/g)].map((match) => match[1]!);
}

test('every default scripts/up.sh applies is in .env.example with the same value (or empty, which up.sh fills)', () => {
  const example = exampleValues();
  const defaults = upDefaults();
  assert.ok(defaults.size >= 10, `found ${defaults.size} defaults in up.sh`);
  for (const [name, value] of defaults) {
    assert.ok(example.has(name), `${name} (up.sh default ${value}) is missing from .env.example`);
    const given = example.get(name);
    assert.ok(
      given === value || given === '',
      `.env.example ${name}=${given} but the development stack uses ${value}: a .env copied from it changes the stack`,
    );
  }
  assert.equal(example.get('PSFE_PARTNER_API_ENABLED'), 'true');
  // A developer's first webhook goes to a receiver on their own machine (issue 27, item 5).
  assert.equal(defaults.get('WEBHOOKS_ALLOW_PRIVATE_TARGETS'), 'true');
});

test('the secrets up.sh generates are empty in .env.example (so the generated ones are used)', () => {
  const example = exampleValues();
  const secrets = generatedSecrets();
  assert.deepEqual(secrets.sort(), [
    'CERTIFICATE_MASTER_KEY',
    'CERTIFICATION_EMBED_SECRET',
    'NEXTAUTH_SECRET',
    'RI_LINK_SECRET',
    'SIM_DIRECTORY_FILE',
  ]);
  for (const name of secrets)
    assert.equal(example.get(name), '', `${name} must be listed empty in .env.example`);
});

const DEMO = JSON.stringify({
  tenant: { legalName: 'Demo SRL', rnc: '131880738' },
  keys: { TesteCF: 'ecf_test_key' },
  portalUsers: {
    owner: { email: 'owner@demo.test', password: 'owner-password' },
    support: { email: 'support@demo.test', password: 'support-password' },
  },
  partner: {
    name: 'Demo Partner',
    origin: 'http://127.0.0.1:3001',
    key: 'psfe_partner_key',
    registryRncs: ['101010101'],
  },
});

function banner(partnerApiEnabled: string | undefined, privateTargets?: string): string {
  const env = { ...process.env };
  delete env.PSFE_PARTNER_API_ENABLED;
  delete env.WEBHOOKS_ALLOW_PRIVATE_TARGETS;
  if (partnerApiEnabled !== undefined) env.PSFE_PARTNER_API_ENABLED = partnerApiEnabled;
  if (privateTargets !== undefined) env.WEBHOOKS_ALLOW_PRIVATE_TARGETS = privateTargets;
  return execFileSync(
    process.execPath,
    [path.join(ROOT, 'scripts', 'up-banner.mjs'), DEMO, '3000', '3001', '3002', '4000', '3003', '1025'],
    { env, encoding: 'utf8' },
  );
}

test('the start banner prints the Partner key and example only when the Partner API is on', () => {
  const on = banner('true');
  assert.match(on, /X-PARTNER-KEY: psfe_partner_key/);
  assert.match(on, /\/partner\/v1\/fiscal-accounts\/by-external-id\/cliente-1/);
  assert.match(on, /X-API-KEY: ecf_test_key/);
  for (const off of [banner('false'), banner(undefined)]) {
    assert.doesNotMatch(off, /X-PARTNER-KEY|psfe_partner_key|\/partner\/v1\/fiscal-accounts/);
    assert.match(off, /Partner API \(\/partner\/v1\): off/);
    assert.match(off, /X-API-KEY: ecf_test_key/);
    assert.match(off, /owner@demo\.test/);
  }
});

test('the start banner says that webhooks may go to localhost only when private targets are allowed', () => {
  assert.match(banner('true', 'true'), /Webhooks: endpoints on localhost .* development only/);
  for (const off of [banner('true', 'false'), banner('true')]) assert.doesNotMatch(off, /Webhooks:/);
});
