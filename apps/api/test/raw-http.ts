import { connect, type Socket } from 'node:net';

/** What came back on a raw connection: the bytes, and the first HTTP response parsed out of them. */
export type TRawExchange = {
  /** Every byte the server sent, in order (interim `100 Continue` answers included). */
  raw: Buffer;
  /** The final response: its status line, lower-cased headers and body (Content-Length delimited). */
  status: number;
  statusLine: string;
  headers: Record<string, string>;
  body: string;
  /** The first error the client socket saw (EPIPE, ECONNRESET...), if any. */
  socketError: string | null;
  /** Whether the client managed to write everything it meant to send. */
  wroteEverything: boolean;
};

/**
 * Parses the final (non-1xx) response at the start of `raw`; null while it is incomplete. The
 * servers under test always send `content-length`, so no chunked decoding is needed.
 */
export function parseResponse(
  raw: Buffer,
): Omit<TRawExchange, 'raw' | 'socketError' | 'wroteEverything'> | null {
  let offset = 0;
  for (;;) {
    const headEnd = raw.indexOf('\r\n\r\n', offset);
    if (headEnd < 0) return null;
    const head = raw.subarray(offset, headEnd).toString('latin1');
    const [statusLine = '', ...headerLines] = head.split('\r\n');
    const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(statusLine)?.[1] ?? NaN);
    if (status >= 100 && status < 200) {
      offset = headEnd + 4;
      continue;
    }
    const headers: Record<string, string> = {};
    for (const line of headerLines) {
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    const length = Number(headers['content-length'] ?? NaN);
    const bodyStart = headEnd + 4;
    if (Number.isNaN(length) || raw.length < bodyStart + length) return null;
    return {
      status,
      statusLine,
      headers,
      body: raw.subarray(bodyStart, bodyStart + length).toString('utf8'),
    };
  }
}

export type TRawRequestOptions = {
  port: number;
  /** Sent first, as is (request line and headers, possibly malformed). */
  head: string | Buffer;
  /** Filler body bytes to keep writing after the head (respecting backpressure), e.g. 10 MB. */
  bodyBytes?: number;
  /** Or this exact body. */
  body?: string | Buffer;
  /** Send the body as chunked transfer coding (the head must say so). */
  chunked?: boolean;
  /** Wait for an interim `100 Continue` before sending the body; if the final answer comes first, send nothing. */
  waitForContinue?: boolean;
  /** Give up after this long (the exchange is returned as it stands). */
  timeoutMs?: number;
};

/**
 * One exchange over a raw TCP connection: writes `head`, then optionally a body as fast as the
 * socket accepts it, while reading whatever the server answers; resolves when the server closes
 * the connection, when a complete final response has arrived and nothing more is to be written,
 * or at the timeout. Never rejects: socket errors are reported in `socketError`.
 */
export function exchangeRaw(options: TRawRequestOptions): Promise<TRawExchange> {
  return new Promise((resolve) => {
    const socket: Socket = connect({ host: '127.0.0.1', port: options.port });
    const chunks: Buffer[] = [];
    let socketError: string | null = null;
    let wroteEverything = false;
    let settled = false;
    let sendingBody = false;
    const finish = () => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      const raw = Buffer.concat(chunks);
      const parsed = parseResponse(raw);
      resolve({
        raw,
        status: parsed?.status ?? 0,
        statusLine: parsed?.statusLine ?? '',
        headers: parsed?.headers ?? {},
        body: parsed?.body ?? '',
        socketError,
        wroteEverything,
      });
    };
    const timer = setTimeout(finish, options.timeoutMs ?? 15_000);
    const exactBody = options.body === undefined ? null : Buffer.from(options.body);
    const bodyBytes = exactBody?.length ?? options.bodyBytes ?? 0;

    const writeBody = () => {
      if (sendingBody) return;
      sendingBody = true;
      const block = exactBody ?? Buffer.alloc(64 * 1024, 'a');
      let remaining = bodyBytes;
      const pump = () => {
        while (remaining > 0 && !socket.destroyed) {
          const size = Math.min(block.length, remaining);
          remaining -= size;
          const piece = block.subarray(0, size);
          const data = options.chunked
            ? Buffer.concat([Buffer.from(`${size.toString(16)}\r\n`), piece, Buffer.from('\r\n')])
            : piece;
          if (!socket.write(data)) {
            socket.once('drain', pump);
            return;
          }
        }
        if (remaining === 0 && !socket.destroyed) {
          if (options.chunked) socket.write('0\r\n\r\n');
          wroteEverything = true;
          if (parseResponse(Buffer.concat(chunks))) finish();
        }
      };
      pump();
    };

    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      const text = Buffer.concat(chunks).toString('latin1');
      if (options.waitForContinue && !sendingBody && /^HTTP\/1\.1 100 /.test(text)) {
        writeBody();
        return;
      }
      const complete = parseResponse(Buffer.concat(chunks)) !== null;
      if (complete && (bodyBytes === 0 || wroteEverything || options.waitForContinue)) finish();
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      socketError ??= error.code ?? error.message;
      finish();
    });
    socket.on('close', finish);
    socket.on('connect', () => {
      socket.write(options.head);
      if (bodyBytes === 0) {
        wroteEverything = true;
        return;
      }
      if (!options.waitForContinue) writeBody();
    });
  });
}
