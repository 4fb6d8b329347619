/**
 * Partner API benchmark: the Partner emission route (`POST /partner/v1/fiscal-accounts/{id}/testecf/documents`,
 * the submission inside `{ document }`) against the direct one (`POST /TesteCF/documentos-ecf`),
 * same tenant, same 10-line E31 with distinct eNCFs, measured in the same run, alternating
 * (direct, Partner, direct, Partner) so drift from other work on the machine hits both alike.
 *
 * Run from the repository root:  bash scripts/node24.sh npx tsx bench/partner/run.ts
 * Optional: BENCH_SECONDS (per measurement, default 8), BENCH_CONNECTIONS (default 16).
 *
 * Goal: Partner / direct >= 0.9 (the facade costs almost nothing).
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';
import { e31 } from '../shared/documents.ts';
import { NODE_TYPESCRIPT_FLAGS } from '@ecf/db/testing';

const SECONDS = Number(process.env['BENCH_SECONDS'] ?? '8');
const CONNECTIONS = Number(process.env['BENCH_CONNECTIONS'] ?? '16');

type TServer = { apiUrl: string; apiKey: string; partnerKey: string; accountId: string };

const child = spawn(
  process.execPath,
  [...NODE_TYPESCRIPT_FLAGS, new URL('./server.ts', import.meta.url).pathname],
  {
    stdio: ['ignore', 'pipe', 'inherit'],
  },
);
const server = await new Promise<TServer>((resolve, reject) => {
  createInterface({ input: child.stdout }).once('line', (line) => resolve(JSON.parse(line) as TServer));
  child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
});

let sequence = 0;
const nextEncf = () => {
  sequence += 1;
  return `E31${String(sequence).padStart(10, '0')}`;
};

type TResult = { rps: number; p50: number; p99: number; statuses: Record<string, number>; errors: number };

async function measure(kind: 'direct' | 'partner', seconds = SECONDS): Promise<TResult> {
  const statuses: Record<string, number> = {};
  const options: autocannon.Options =
    kind === 'direct'
      ? {
          url: `${server.apiUrl}/TesteCF/documentos-ecf`,
          headers: { 'content-type': 'application/json', 'x-api-key': server.apiKey },
        }
      : {
          url: `${server.apiUrl}/partner/v1/fiscal-accounts/${server.accountId}/testecf/documents`,
          headers: { 'content-type': 'application/json', 'x-partner-key': server.partnerKey },
        };
  const instance = autocannon({
    ...options,
    method: 'POST',
    connections: CONNECTIONS,
    duration: seconds,
    requests: [
      {
        setupRequest: (request) => ({
          ...request,
          body: kind === 'direct' ? e31(nextEncf()) : `{"document":${e31(nextEncf())}}`,
        }),
      },
    ],
  }) as unknown as Promise<autocannon.Result> & {
    on(event: 'response', listener: (client: unknown, statusCode: number) => void): void;
  };
  instance.on('response', (_client: unknown, statusCode: number) => {
    statuses[statusCode] = (statuses[statusCode] ?? 0) + 1;
  });
  const result = await instance;
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    statuses,
    errors: result.errors + result.timeouts,
  };
}

try {
  await measure('direct', 2);
  await measure('partner', 2);
  const rounds: Array<{ kind: 'direct' | 'partner'; result: TResult }> = [];
  for (const kind of ['direct', 'partner', 'direct', 'partner'] as const)
    rounds.push({ kind, result: await measure(kind) });
  const average = (kind: 'direct' | 'partner') => {
    const of = rounds.filter((round) => round.kind === kind).map((round) => round.result.rps);
    return of.reduce((sum, value) => sum + value, 0) / of.length;
  };
  console.log(`\nPartner benchmark: emission (202), ${SECONDS} s per round, ${CONNECTIONS} connections\n`);
  console.log(
    'round'.padEnd(10),
    'req/s'.padStart(9),
    'p50 ms'.padStart(8),
    'p99 ms'.padStart(8),
    '  statuses',
  );
  for (const { kind, result } of rounds)
    console.log(
      kind.padEnd(10),
      result.rps.toFixed(0).padStart(9),
      String(result.p50).padStart(8),
      String(result.p99).padStart(8),
      ' ',
      JSON.stringify(result.statuses),
      result.errors ? `errors=${result.errors}` : '',
    );
  const ratio = average('partner') / average('direct');
  console.log(
    `\ndirect ${average('direct').toFixed(0)} req/s, Partner ${average('partner').toFixed(0)} req/s`,
  );
  console.log(
    `ratio Partner / direct = ${ratio.toFixed(3)} (goal >= 0.9): ${ratio >= 0.9 ? 'met' : 'NOT met'}`,
  );
  const clean = rounds.every(
    ({ result }) => result.errors === 0 && Object.keys(result.statuses).every((status) => status === '202'),
  );
  console.log(`only 202 answers: ${clean ? 'yes' : 'NO'}`);
} finally {
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}
