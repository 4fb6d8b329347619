// The portal's security surface as a browser and an attacker see it: no secret in any file the
// browser may download, a nonce'd CSP on every page with every script carrying the nonce, framing
// refused, session cookies httpOnly and sameSite=lax, and mutations only as same-origin JSON POSTs.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { launchBrowser } from '../support/browser.ts';
import { clientBundleFiles, WEB_DIRECTORY } from '../support/portal-build.ts';
import { newPortalPage, portalUrl, signIn } from '../support/portal.ts';
import { closeDatabase, seedPortalTenant } from '../support/seed.ts';
import { stack } from '../support/stack.ts';

let browser: Browser;
before(async () => {
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await closeDatabase();
});

/** Names of the server's secrets and database settings: none may be in code the browser gets. */
const SECRET_NAMES = [
  'CERTIFICATE_MASTER_KEY',
  'CERTIFICATE_MASTER_KEY_PREVIOUS',
  'NEXTAUTH_SECRET',
  'RI_LINK_SECRET',
  'API_CURSOR_SECRET',
  'DATABASE_URL',
  'SMTP_PASSWORD',
];
/** Key material and password hashes, whatever their origin. */
const KEY_MATERIAL = [/-----BEGIN [A-Z ]*PRIVATE KEY-----/, /\$argon2id\$/, /postgres(ql)?:\/\//];

test('no client bundle holds a secret variable name, a secret value or key material', () => {
  const files = clientBundleFiles();
  assert.ok(
    files.some((file) => file.endsWith('.js')),
    `no client JavaScript found under ${path.join(WEB_DIRECTORY, '.next', 'static')}`,
  );
  const secretValues = Object.values(stack().secrets);
  const found: string[] = [];
  for (const file of files) {
    const text = readFileSync(file, 'latin1');
    const where = path.relative(WEB_DIRECTORY, file);
    for (const name of SECRET_NAMES) if (text.includes(name)) found.push(`${where}: ${name}`);
    for (const pattern of KEY_MATERIAL) if (pattern.test(text)) found.push(`${where}: ${String(pattern)}`);
    for (const value of secretValues) if (text.includes(value)) found.push(`${where}: a secret's value`);
  }
  assert.deepEqual(found, []);
});

test("every page's scripts carry the CSP nonce of its answer, a fresh one each time; framing is refused", async () => {
  const nonces = new Set<string>();
  for (const pathname of ['/sign-in', '/forgot-password', '/sign-in']) {
    const answer = await fetch(portalUrl(pathname));
    assert.equal(answer.status, 200, pathname);
    const policy = answer.headers.get('content-security-policy') ?? '';
    const nonce = /'nonce-([A-Za-z0-9+/=]+)'/.exec(policy)?.[1];
    assert.ok(nonce !== undefined, `${pathname}: no nonce in ${policy}`);
    assert.match(
      policy,
      /script-src 'self' 'nonce-[^']+' 'strict-dynamic'(;|$)/,
      'no unsafe-inline, no eval',
    );
    assert.match(policy, /frame-ancestors 'none'/);
    assert.match(policy, /object-src 'none'/);
    assert.equal(answer.headers.get('x-frame-options'), 'DENY');
    assert.equal(answer.headers.get('x-content-type-options'), 'nosniff');
    const html = await answer.text();
    const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((match) => match[0]);
    assert.ok(scripts.length > 0, `${pathname}: no script tag`);
    for (const tag of scripts)
      assert.ok(tag.includes(`nonce="${nonce}"`), `${pathname}: ${tag} lacks the nonce`);
    nonces.add(nonce);
  }
  assert.equal(nonces.size, 3, 'a nonce is never reused');
});

test('session cookies are httpOnly and sameSite=lax; a cross-site mutation is refused even signed in', async () => {
  const { owner } = await seedPortalTenant();
  const { context, page } = await newPortalPage(browser);
  await signIn(page, owner);
  const cookies = await context.cookies(portalUrl('/'));
  const session = cookies.find((cookie) => cookie.name.includes('session-token'));
  assert.ok(
    session !== undefined,
    `no session cookie among ${cookies.map((cookie) => cookie.name).join(', ')}`,
  );
  assert.equal(session.httpOnly, true);
  assert.equal(session.sameSite, 'Lax');
  const csrf = cookies.find((cookie) => cookie.name.includes('csrf-token'));
  if (csrf !== undefined) assert.equal(csrf.httpOnly, true);

  const cookieHeader = cookies.map((cookie) => `${cookie.name}=${cookie.value}`).join('; ');
  const mutation = (headers: Record<string, string>, body: string) =>
    fetch(portalUrl('/api/trpc/session.signOutEverywhere'), {
      method: 'POST',
      headers: { cookie: cookieHeader, ...headers },
      body,
    });
  const foreign = await mutation(
    { 'content-type': 'application/json', origin: 'https://attacker.example' },
    '{}',
  );
  assert.equal(foreign.status, 403);
  const form = await mutation(
    { 'content-type': 'application/x-www-form-urlencoded', origin: new URL(stack().portalUrl).origin },
    'a=b',
  );
  assert.ok(form.status >= 400 && form.status < 500, `a form POST answered ${form.status}`);
  // Neither reached the mutation: the session still works.
  await page.goto(portalUrl('/members'));
  await page.getByRole('heading', { name: 'Miembros', level: 1 }).waitFor();
  await context.close();
});
