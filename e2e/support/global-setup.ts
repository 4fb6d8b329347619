/**
 * node:test's global setup (`--test-global-setup`): the portal's production build (reused when its
 * sources did not change) and ONE stack for the whole run, handed to every spec process in
 * `E2E_STACK`; stopped (and its database dropped) after the last spec.
 */
import { startStack } from './stack.ts';

let running: Awaited<ReturnType<typeof startStack>> | undefined;

export async function globalSetup() {
  const started = Date.now();
  running = await startStack();
  process.env.E2E_STACK = JSON.stringify(running.stack);
  console.log(`e2e: stack ready in ${Date.now() - started} ms (portal ${running.stack.portalUrl})`);
}

export async function globalTeardown() {
  await running?.stop();
}
