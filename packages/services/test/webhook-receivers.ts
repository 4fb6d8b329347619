// Local webhook receivers for the transport tests: plain node:http (or node:https) servers on
// 127.0.0.1 that record every request (headers and raw body bytes) and answer as told.
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';

export type TRecordedRequest = {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  /** The raw body bytes as received. */
  body: Buffer;
};

export type TReceiver = {
  /** `http://127.0.0.1:<port>/hook` (https with `tls`). */
  url: string;
  port: number;
  requests: TRecordedRequest[];
  close(): Promise<void>;
};

/** Answers each request (after its body was read) with `answer`; an `answer` that never responds hangs. */
export async function startReceiver(
  answer: (response: ServerResponse, request: IncomingMessage) => void,
  options: { tls?: { key: string; cert: string } } = {},
): Promise<TReceiver> {
  const requests: TRecordedRequest[] = [];
  const handle = (request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      requests.push({
        method: request.method ?? '',
        url: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks),
      });
      answer(response, request);
    });
  };
  const server = options.tls === undefined ? createServer(handle) : createTlsServer(options.tls, handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `${options.tls === undefined ? 'http' : 'https'}://127.0.0.1:${port}/hook`,
    port,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
