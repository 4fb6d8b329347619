import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { launchBrowser } from '../support/browser.ts';
import { freePort, startServer } from '../support/processes.ts';

const webDirectory = path.join(import.meta.dirname, '..', '..', 'apps', 'web');
let port: number;
let web: Awaited<ReturnType<typeof startServer>>;
let browser: Browser;

before(async () => {
  port = await freePort();
  web = await startServer({
    command: 'npx',
    args: ['next', 'dev', '--port', String(port)],
    cwd: webDirectory,
    env: { NEXT_TELEMETRY_DISABLED: '1', NEXT_PUBLIC_API_URL: 'http://127.0.0.1:3999' },
    url: `http://127.0.0.1:${port}/`,
  });
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await web?.stop();
});

test('the portal home page renders in Chromium with its title and service links', async () => {
  const page = await browser.newPage();
  await page.goto(`http://127.0.0.1:${port}/`);
  assert.equal(await page.locator('h1').textContent(), 'e-CF Portal');
  const links = await page
    .locator('section[aria-label="Services"] a')
    .evaluateAll((anchors) => anchors.map((anchor) => anchor.getAttribute('href')));
  assert.deepEqual(links, ['http://127.0.0.1:3999/healthz', 'http://127.0.0.1:3999/readyz']);
  assert.equal(await page.title(), 'e-CF Portal');
});
