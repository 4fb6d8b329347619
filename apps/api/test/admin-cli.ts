// How the CLI's tests run it: most commands in the test's own process (`runAdmin`, exactly what the
// entry runs), and a few as the operator's shell does, a process of its own, to prove the entry's
// wiring (argv, environment, streams, exit status). A process costs about 2 s of CPU to start.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { NODE_TYPESCRIPT_FLAGS } from '@ecf/db/testing';
import { runAdmin } from '../src/cli/admin.ts';

export type TAdminResult = { stdout: string; stderr: string; code: number };

/** The CLI in this process: its lines as the process would print them, and its exit status. */
export async function runAdminHere(env: NodeJS.ProcessEnv, args: readonly string[]): Promise<TAdminResult> {
  let stdout = '';
  let stderr = '';
  const code = await runAdmin(args, {
    env,
    cwd: process.cwd(),
    out: (text) => (stdout += `${text}\n`),
    err: (text) => (stderr += `${text}\n`),
  });
  return { stdout, stderr, code };
}

const execute = promisify(execFile);

/** The CLI as a process of its own (`npm run admin -- …` runs the same file with the same flags). */
export async function runAdminProcess(
  env: NodeJS.ProcessEnv,
  args: readonly string[],
): Promise<TAdminResult> {
  try {
    const { stdout, stderr } = await execute(
      process.execPath,
      [...NODE_TYPESCRIPT_FLAGS, path.join(import.meta.dirname, '..', 'src', 'cli', 'admin.ts'), ...args],
      { env },
    );
    return { stdout, stderr, code: 0 };
  } catch (error) {
    const failure = error as { stdout: string; stderr: string; code: number };
    return { stdout: failure.stdout, stderr: failure.stderr, code: failure.code };
  }
}
