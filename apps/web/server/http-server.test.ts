import assert from 'node:assert/strict';
import type { Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { createTestDatabase, exitOfStart, type TTestDatabase } from '@ecf/db/testing';
import { readServerEnv } from '../server-env.ts';
import { createPortalServer, type TPortalTimeouts } from './http-server.ts';

const TIMEOUTS: TPortalTimeouts = {
  headersTimeoutMs: 500,
  bodyTimeoutMs: 600,
  requestTimeoutMs: 3_000,
  keepAliveTimeoutMs: 400,
};

let server: Server;
let port: number;
before(async () => {
  // A tiny handler standing for Next.js's: reads the whole body, answers its length.
  server = createPortalServer({
    timeouts: TIMEOUTS,
    handler: async (request, response) => {
      let length = 0;
      for await (const chunk of request) length += (chunk as Buffer).length;
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ length }));
    },
  });
  const env = readServerEnv({});
  await new Promise<void>((resolve) => server.listen(0, env.WEB_HOST, resolve));
  port = (server.address() as AddressInfo).port;
});
after(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** Sends `chunks` (a string, or strings with pauses between them) and collects what comes back until the server closes. */
async function exchange(chunks: Array<string | number>): Promise<{ answer: string; closedAfterMs: number }> {
  const socket = connect(port, '127.0.0.1');
  await new Promise((resolve) => socket.once('connect', resolve));
  const started = Date.now();
  let answer = '';
  socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
  const closed = new Promise<number>((resolve) => socket.once('close', () => resolve(Date.now() - started)));
  socket.on('error', () => undefined);
  for (const chunk of chunks) {
    if (socket.destroyed) break;
    if (typeof chunk === 'number') await new Promise((resolve) => setTimeout(resolve, chunk));
    else socket.write(chunk);
  }
  const timer = setTimeout(() => socket.destroy(), 10_000);
  const closedAfterMs = await closed;
  clearTimeout(timer);
  return { answer, closedAfterMs };
}

test('the portal binds 127.0.0.1 by default (WEB_HOST), and WEB_HOST chooses the interface', () => {
  assert.equal(readServerEnv({}).WEB_HOST, '127.0.0.1');
  assert.equal(readServerEnv({ WEB_HOST: '0.0.0.0' }).WEB_HOST, '0.0.0.0');
  assert.equal((server.address() as AddressInfo).address, '127.0.0.1');
  assert.throws(
    () => readServerEnv({ WEB_HEADERS_TIMEOUT_MS: '60000', WEB_REQUEST_TIMEOUT_MS: '30000' }),
    /WEB_HEADERS_TIMEOUT_MS/,
  );
});

test('a complete request is served', async () => {
  const { answer } = await exchange([
    'POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello',
  ]);
  assert.match(answer, /^HTTP\/1\.1 200 /);
  assert.match(answer, /\{"length":5\}/);
});

test('incomplete headers: 400 REQUEST_TIMEOUT and the connection closed within the headers timeout', async () => {
  const { answer, closedAfterMs } = await exchange(['GET / HTTP/1.1\r\nHost: x\r\n']);
  assert.match(answer, /^HTTP\/1\.1 400 /);
  assert.match(answer, /"code":"REQUEST_TIMEOUT"/);
  assert.ok(closedAfterMs >= TIMEOUTS.headersTimeoutMs - 50, `closed after ${closedAfterMs} ms`);
  assert.ok(closedAfterMs < TIMEOUTS.headersTimeoutMs + 2_000, `closed after ${closedAfterMs} ms`);
});

test('a connection that never sends a byte is closed within the headers timeout', async () => {
  const { closedAfterMs } = await exchange([]);
  assert.ok(closedAfterMs < TIMEOUTS.headersTimeoutMs + 2_000, `closed after ${closedAfterMs} ms`);
});

test('an incomplete body (Content-Length 1000, 10 bytes sent): 400 REQUEST_TIMEOUT body_timeout, closed within the body timeout', async () => {
  const { answer, closedAfterMs } = await exchange([
    'POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n0123456789',
  ]);
  assert.match(answer, /^HTTP\/1\.1 400 /);
  assert.match(answer, /connection: close/i);
  assert.match(answer, /"code":"REQUEST_TIMEOUT"/);
  assert.match(answer, /"reason":"body_timeout"/);
  assert.ok(closedAfterMs >= TIMEOUTS.bodyTimeoutMs - 50, `closed after ${closedAfterMs} ms`);
  assert.ok(closedAfterMs < TIMEOUTS.bodyTimeoutMs + 2_000, `closed after ${closedAfterMs} ms`);
});

test('a body trickled a byte at a time is cut by the body timeout too', async () => {
  const trickle: Array<string | number> = ['POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n'];
  for (let index = 0; index < 30; index += 1) trickle.push('x', 100);
  const { answer, closedAfterMs } = await exchange(trickle);
  assert.match(answer, /"reason":"body_timeout"/);
  assert.ok(closedAfterMs < TIMEOUTS.bodyTimeoutMs + 2_000, `closed after ${closedAfterMs} ms`);
});

test('an idle keep-alive connection is closed after the keep-alive timeout', async () => {
  const { answer, closedAfterMs } = await exchange(['GET / HTTP/1.1\r\nHost: x\r\n\r\n']);
  assert.match(answer, /^HTTP\/1\.1 200 /);
  assert.ok(closedAfterMs >= TIMEOUTS.keepAliveTimeoutMs - 50, `closed after ${closedAfterMs} ms`);
  assert.ok(closedAfterMs < TIMEOUTS.keepAliveTimeoutMs + 2_000, `closed after ${closedAfterMs} ms`);
});

test('many incomplete bodies at once are all cut and their sockets released', async () => {
  const results = await Promise.all(
    Array.from({ length: 100 }, () =>
      exchange(['POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n0123456789']),
    ),
  );
  for (const { closedAfterMs } of results) assert.ok(closedAfterMs < TIMEOUTS.bodyTimeoutMs + 3_000);
  const open = await new Promise<number>((resolve, reject) =>
    server.getConnections((error, count) => (error ? reject(error) : resolve(count))),
  );
  assert.equal(open, 0);
});

let testDatabase: TTestDatabase | undefined;
after(async () => {
  await testDatabase?.drop();
});

test('a portal whose budget exceeds max_connections − reserved refuses to start: exit code 1 and the sums on stderr', async () => {
  testDatabase = await createTestDatabase({ migrated: false });
  const web = path.join(import.meta.dirname, '..');
  const { code, stderr } = await exitOfStart(path.join(web, 'server.ts'), {
    cwd: web,
    env: { NODE_ENV: 'production', DATABASE_URL: testDatabase.url, WEB_PORT: '0', WEB_DB_POOL_MAX: '1000' },
  });
  assert.equal(code, 1, stderr);
  assert.match(
    stderr,
    /^web: its database connection budget \(application 1000 \+ jobQueue 2 = 1002\) exceeds what the server allows/m,
  );
});
