import { spawn, type ChildProcess } from 'node:child_process';

/** A port free at the time of asking: the one helper of `@ecf/db/testing`. */
export { freePort } from '@ecf/db/testing';

/** Starts a long-running command and resolves once `url` answers 200; `stop` ends it. */
export async function startServer(options: {
  command: string;
  args: string[];
  cwd: string;
  env?: Record<string, string>;
  url: string;
  timeoutMs?: number;
}): Promise<{ process: ChildProcess; stop: () => Promise<void>; output: () => string }> {
  const child = spawn(options.command, options.args, {
    cwd: options.cwd,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const stop = async () => {
    if (child.exitCode !== null || child.pid === undefined) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    process.kill(-child.pid, 'SIGTERM');
    const timer = setTimeout(() => child.pid !== undefined && process.kill(-child.pid, 'SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  };
  const deadline = Date.now() + (options.timeoutMs ?? 90_000);
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${options.command} exited early:\n${output}`);
    const status = await fetch(options.url)
      .then((response) => response.status)
      .catch(() => 0);
    if (status === 200) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`${options.url} never answered 200:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  return { process: child, stop, output: () => output };
}
