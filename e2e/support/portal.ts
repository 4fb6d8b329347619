/**
 * Shared helpers of the portal's specs: a browser context per person (1280×800), signing in through
 * next-auth's API (STYLE 16: the sign-in form has its own spec), the accessibility check (axe: no
 * serious or critical violation) and the screenshot of each page under e2e/artifacts/ (ignored).
 */
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { TPortalUser } from './seed.ts';
import { stack } from './stack.ts';

export const VIEWPORT = { width: 1280, height: 800 };
export const ARTIFACTS = path.join(import.meta.dirname, '..', 'artifacts');

/** A fresh browser context (its own cookies) and page at 1280×800; CSP violations fail `assertNoConsoleErrors`. */
export async function newPortalPage(
  browser: Browser,
): Promise<{ context: BrowserContext; page: Page; problems: string[] }> {
  const context = await browser.newContext({
    viewport: VIEWPORT,
    locale: 'es-DO',
    timezoneId: 'America/Santo_Domingo',
  });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
  });
  return { context, page, problems };
}

/** `path` on the portal. */
export function portalUrl(pathname: string): string {
  return new URL(pathname, stack().portalUrl).toString();
}

/**
 * Signs `user` in through next-auth's own endpoints (CSRF token, then the credentials callback) in
 * the page's context, so the page's next navigation is signed in.
 */
export async function signIn(page: Page, user: Pick<TPortalUser, 'email' | 'password'>): Promise<void> {
  const request = page.context().request;
  const csrf = (await (await request.get(portalUrl('/api/auth/csrf'))).json()) as { csrfToken: string };
  const answer = await request.post(portalUrl('/api/auth/callback/credentials'), {
    form: {
      csrfToken: csrf.csrfToken,
      email: user.email,
      password: user.password,
      json: 'true',
      callbackUrl: portalUrl('/'),
    },
  });
  const body = (await answer.json()) as { url?: string };
  assert.equal(answer.status(), 200, `sign-in of ${user.email} refused: ${JSON.stringify(body)}`);
  assert.ok(!String(body.url).includes('error='), `sign-in of ${user.email} refused: ${String(body.url)}`);
}

/** axe on the page as it is now: fails on any serious or critical violation (WCAG 2.1 AA rules). */
export async function checkAccessibility(page: Page): Promise<void> {
  // The page as the user ends up with it: loaded, its requests done, hydrated. (A not-found thrown
  // while the page streams arrives as Next's bare error shell first, which the client replaces.)
  await page.waitForLoadState('networkidle');
  await page
    .locator('html[lang]')
    .waitFor({ state: 'attached', timeout: 5000 })
    .catch(() => undefined);
  // Next streams a page's metadata: after a refresh the <title> can arrive a moment after the body
  // (seen once on /certificate under CI load). axe still fails a page that never gets one.
  await page
    .waitForFunction(() => document.title !== '', undefined, { timeout: 5000 })
    .catch(() => undefined);
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .analyze();
  const blocking = results.violations.filter(
    (violation) => violation.impact === 'serious' || violation.impact === 'critical',
  );
  assert.deepEqual(
    blocking.map((violation) => ({
      rule: violation.id,
      impact: violation.impact,
      help: violation.help,
      nodes: violation.nodes.slice(0, 3).map((node) => node.target.join(' ')),
    })),
    [],
    `axe found serious or critical violations on ${page.url()}`,
  );
}

/** A 1280×800 PNG of the page (the viewport) as e2e/artifacts/<name>.png. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const file = path.join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path: file, fullPage: false });
  return file;
}

/** Both checks every page of the portal gets in its spec. */
export async function checkPage(page: Page, name: string): Promise<void> {
  await checkAccessibility(page);
  await screenshot(page, name);
}

/** Fails when the page logged errors (a CSP violation is one). */
export function assertNoConsoleErrors(problems: string[]): void {
  assert.deepEqual(problems, [], 'the page logged errors');
}
