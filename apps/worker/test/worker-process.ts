/**
 * The worker as a real process, for the crash tests: started with `node <NODE_TYPESCRIPT_FLAGS> src/main.ts`
 * and an environment of the test's choosing, killed with real signals. Its output is kept (the
 * last 10,000 characters) for the failure messages.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { NODE_TYPESCRIPT_FLAGS } from '@ecf/db/testing';

export type TWorkerProcess = { child: ChildProcess; exited: Promise<void>; output: () => string };

/** `env` over the test's own environment; a variable given as undefined is removed (its default applies). */
export function startWorkerProcess(env: Record<string, string | undefined>): TWorkerProcess {
  const merged: Record<string, string | undefined> = {
    ...process.env,
    WORKER_HEALTH_PORT: '0',
    LOG_LEVEL: 'warn',
    ...env,
  };
  const child = spawn(
    process.execPath,
    [...NODE_TYPESCRIPT_FLAGS, path.join(import.meta.dirname, '..', 'src', 'main.ts')],
    {
      env: Object.fromEntries(
        Object.entries(merged).filter((entry): entry is [string, string] => entry[1] !== undefined),
      ),
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-10_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return { child, exited, output: () => output };
}

export const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));

/** Waits until `condition` holds (checked every 10 ms); false when `timeoutMs` passes first. */
export async function waitUntil(condition: () => Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await condition()) return true;
    await sleep(10);
  }
  return false;
}
