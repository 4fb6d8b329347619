import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { launchBrowser } from '../support/browser.ts';
import { freePort, startServer } from '../support/processes.ts';
import { NODE_TYPESCRIPT_FLAGS } from '@ecf/db/testing';

// The API as a process on a database of its own (apps/api/test/serve-test-api.ts creates and drops it).
const apiDirectory = path.join(import.meta.dirname, '..', '..', 'apps', 'api');
let origin: string;
let api: Awaited<ReturnType<typeof startServer>>;
let browser: Browser;

before(async () => {
  const port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  api = await startServer({
    command: process.execPath,
    args: [...NODE_TYPESCRIPT_FLAGS, 'test/serve-test-api.ts'],
    cwd: apiDirectory,
    env: { PORT: String(port) },
    url: `${origin}/healthz`,
  });
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await api?.stop();
});

test('/docs renders the operations of /openapi.json in Chromium, every asset from the API itself', async () => {
  const page = await browser.newPage();
  const requested: string[] = [];
  page.on('request', (request) => requested.push(request.url()));
  const failures: string[] = [];
  page.on('pageerror', (error) => failures.push(error.message));

  await page.goto(`${origin}/docs`);
  assert.equal(new URL(page.url()).pathname, '/docs/');
  assert.equal(await page.title(), 'e-CF service: API reference');
  // Operation summaries of the contract, as the renderer shows them.
  for (const summary of [
    'Preflight (validate=true) or issue an e-CF',
    'Status of up to 100 documents (50 recommended)',
    'Signed XML, byte for byte as stored',
  ])
    await page.getByText(summary, { exact: true }).first().waitFor({ state: 'visible', timeout: 30_000 });
  assert.ok(await page.getByText('e-CF service: direct account API').first().isVisible());

  assert.ok(requested.includes(`${origin}/openapi.json`), requested.join('\n'));
  const elsewhere = requested.filter((url) => !url.startsWith(`${origin}/`) && !url.startsWith('data:'));
  assert.deepEqual(elsewhere, [], 'the page reached beyond the API');
  assert.deepEqual(failures, []);
});
