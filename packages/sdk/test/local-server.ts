/**
 * A real HTTP server on 127.0.0.1 whose answers a test scripts one by one, recording every request
 * it received: the transport's behaviour (retries, Retry-After, timeouts, the headers it sets)
 * needs answers the service gives only under load or outage. What the SDK does against the service
 * itself is proven by e2e/specs/sdk.spec.ts, against the running stack.
 */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type TRecorded = { method: string; url: string; headers: IncomingHttpHeaders; body: Buffer };
export type TAnswer = (response: ServerResponse, request: TRecorded) => void;

export const json =
  (status: number, body: unknown, headers: Record<string, string> = {}): TAnswer =>
  (response) => {
    response.writeHead(status, { 'content-type': 'application/json', ...headers });
    response.end(JSON.stringify(body));
  };

export const failure = (status: number, code: string, headers: Record<string, string> = {}): TAnswer =>
  json(
    status,
    {
      ok: false,
      error: { code, message: `${code} happened`, details: { field: 'x' } },
      correlationId: `corr-${code}`,
    },
    headers,
  );

/** Closes the connection without an answer (a reset as the client sees it). */
export const hangUp: TAnswer = (response) => response.socket?.destroy();

export async function startLocalServer() {
  const received: TRecorded[] = [];
  const answers: TAnswer[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const recorded = {
        method: request.method ?? '',
        url: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks),
      };
      received.push(recorded);
      const answer =
        answers.shift() ??
        json(500, {
          ok: false,
          error: { code: 'UNSCRIPTED', message: 'no answer scripted', details: {} },
          correlationId: 'c',
        });
      answer(response, recorded);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    received,
    /** Queues the next answers, in order. */
    answer: (...next: TAnswer[]) => answers.push(...next),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
