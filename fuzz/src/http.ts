/**
 * Raw HTTP for the fuzzer: node:http, so a path, a query and a body go out byte for byte (fetch
 * would normalize the URL and refuse some bytes before they reach the server).
 */
import http from 'node:http';

export type TRawRequest = {
  method: string;
  /** Path and query, already encoded as they must appear on the wire. */
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
};

export type TRawAnswer = { status: number; headers: http.IncomingHttpHeaders; body: Buffer };

const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });

/**
 * Sends one request; a connection closed without an answer is status 0. A kept-alive socket the
 * server closed as idle just as the request went out is retried once on a new connection (the race
 * every HTTP client has with keep-alive; not the server's fault).
 */
export async function send(origin: URL, request: TRawRequest, timeoutMs = 30_000): Promise<TRawAnswer> {
  const answer = await sendOnce(origin, request, timeoutMs);
  return answer.retry ? (await sendOnce(origin, request, timeoutMs, false)).answer : answer.answer;
}

function sendOnce(
  origin: URL,
  request: TRawRequest,
  timeoutMs: number,
  reuse = true,
): Promise<{ answer: TRawAnswer; retry: boolean }> {
  return new Promise((done) => {
    const resolve = (answer: TRawAnswer, retry = false) => done({ answer, retry });
    const outgoing = http.request(
      {
        agent: reuse ? agent : false,
        host: origin.hostname,
        port: origin.port,
        method: request.method,
        path: request.path,
        headers: {
          ...request.headers,
          ...(request.body ? { 'content-length': String(request.body.length) } : {}),
        },
        timeout: timeoutMs,
      },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size <= 2_000_000) chunks.push(chunk);
        });
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks),
          }),
        );
        response.on('error', () => resolve({ status: 0, headers: {}, body: Buffer.alloc(0) }));
      },
    );
    outgoing.on('timeout', () => outgoing.destroy(new Error('timeout')));
    outgoing.on('error', (error) =>
      resolve(
        { status: 0, headers: {}, body: Buffer.from(`no answer: ${error.message}`) },
        outgoing.reusedSocket && (error as NodeJS.ErrnoException).code === 'ECONNRESET',
      ),
    );
    outgoing.end(request.body);
  });
}

export function closeAgent(): void {
  agent.destroy();
}
