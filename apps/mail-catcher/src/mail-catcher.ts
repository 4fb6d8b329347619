/**
 * A local SMTP server that accepts every message (no authentication, no relay) and keeps the last
 * N in memory, with a small HTTP page listing them. For development (scripts/up.sh) and tests:
 * nothing ever leaves the machine.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { parseMessage, type TParsedMessage } from './mime.ts';
import { renderMessagePage, renderMessagesPage } from './pages.ts';

export type TCaughtMessage = TParsedMessage & {
  /** 1, 2, 3... in arrival order (stable for the page's links). */
  id: number;
  /** Envelope sender (MAIL FROM), or null for a null sender. */
  envelopeFrom: string | null;
  /** Envelope recipients (RCPT TO). */
  envelopeTo: string[];
  receivedAt: Date;
  /** The message exactly as received, as text. */
  raw: string;
};

export type TMailCatcherOptions = {
  /** SMTP port (0: any free port). Default 1025. */
  smtpPort?: number;
  /** HTTP port of the page (0: any free port). Default 3003. */
  httpPort?: number;
  /** Address both listen on. Default 127.0.0.1. */
  host?: string;
  /** How many messages are kept (oldest dropped first). Default 200. */
  keep?: number;
  /** Largest accepted message in bytes. Default 10 MiB. */
  maxMessageBytes?: number;
};

export type TMailCatcher = {
  smtpPort: number;
  httpPort: number;
  /** The messages kept, oldest first. */
  messages: () => TCaughtMessage[];
  /** Resolves with the first message (already caught or arriving) that satisfies `predicate`; rejects after `timeoutMs`. */
  waitForMessage: (
    predicate?: (message: TCaughtMessage) => boolean,
    timeoutMs?: number,
  ) => Promise<TCaughtMessage>;
  /** Forgets every message. */
  clear: () => void;
  close: () => Promise<void>;
};

/** Starts the SMTP server and the page; resolves once both listen. */
export async function startMailCatcher(options: TMailCatcherOptions = {}): Promise<TMailCatcher> {
  const host = options.host ?? '127.0.0.1';
  const keep = options.keep ?? 200;
  const caught: TCaughtMessage[] = [];
  const waiters = new Set<(message: TCaughtMessage) => void>();
  let nextId = 1;

  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    size: options.maxMessageBytes ?? 10 * 1024 * 1024,
    logger: false,
    // Close does not wait for idle clients longer than this.
    closeTimeout: 1000,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        if (stream.sizeExceeded) {
          callback(Object.assign(new Error('message exceeds the catcher size limit'), { responseCode: 552 }));
          return;
        }
        const raw = Buffer.concat(chunks).toString('utf8');
        const message: TCaughtMessage = {
          ...parseMessage(raw),
          id: nextId++,
          envelopeFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : null,
          envelopeTo: session.envelope.rcptTo.map((recipient) => recipient.address),
          receivedAt: new Date(),
          raw,
        };
        caught.push(message);
        if (caught.length > keep) caught.splice(0, caught.length - keep);
        for (const waiter of [...waiters]) waiter(message);
        callback(null, `queued as ${message.id}`);
      });
      stream.on('error', (error: Error) => callback(error));
    },
  });

  const page = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://catcher');
    const send = (status: number, type: string, body: string) => {
      response.writeHead(status, { 'content-type': `${type}; charset=utf-8`, 'cache-control': 'no-store' });
      response.end(body);
    };
    if (request.method !== 'GET') return send(405, 'text/plain', 'GET only');
    if (url.pathname === '/') return send(200, 'text/html', renderMessagesPage([...caught].reverse()));
    if (url.pathname === '/healthz')
      return send(200, 'application/json', JSON.stringify({ ok: true, messages: caught.length }));
    if (url.pathname === '/api/messages') {
      const summary = caught.map(
        ({ id, from, to, subject, date, envelopeFrom, envelopeTo, receivedAt, text }) => ({
          id,
          from,
          to,
          subject,
          date,
          envelopeFrom,
          envelopeTo,
          receivedAt: receivedAt.toISOString(),
          text,
        }),
      );
      return send(200, 'application/json', JSON.stringify(summary));
    }
    const match = /^\/messages\/(\d+)(\/raw|\/html)?$/.exec(url.pathname);
    const message = match ? caught.find((candidate) => candidate.id === Number(match[1])) : undefined;
    if (!match || !message)
      return send(404, 'text/plain', 'No such message (only the last ones are kept, in memory).');
    if (match[2] === '/raw') return send(200, 'text/plain', message.raw);
    // The HTML body on its own page, under a CSP that runs no script and loads nothing remote.
    if (match[2] === '/html') {
      response.writeHead(200, {
        'content-type': 'text/html; charset=utf-8',
        'content-security-policy':
          "default-src 'none'; style-src 'unsafe-inline'; img-src data:; sandbox allow-popups allow-popups-to-escape-sandbox allow-top-navigation-by-user-activation",
      });
      response.end(message.html ?? '');
      return;
    }
    return send(200, 'text/html', renderMessagePage(message));
  });

  await new Promise<void>((resolve, reject) => {
    smtp.server.once('error', reject);
    smtp.listen(options.smtpPort ?? 1025, host, () => {
      smtp.server.off('error', reject);
      resolve();
    });
  });
  try {
    await new Promise<void>((resolve, reject) => {
      page.once('error', reject);
      page.listen(options.httpPort ?? 3003, host, () => {
        page.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
    throw error;
  }

  return {
    smtpPort: (smtp.server.address() as AddressInfo).port,
    httpPort: (page.address() as AddressInfo).port,
    messages: () => [...caught],
    waitForMessage: (predicate = () => true, timeoutMs = 10_000) =>
      new Promise<TCaughtMessage>((resolve, reject) => {
        const already = caught.find(predicate);
        if (already) return resolve(already);
        const timer = setTimeout(() => {
          waiters.delete(waiter);
          reject(new Error(`no matching message within ${timeoutMs} ms (${caught.length} caught)`));
        }, timeoutMs);
        const waiter = (message: TCaughtMessage) => {
          if (!predicate(message)) return;
          clearTimeout(timer);
          waiters.delete(waiter);
          resolve(message);
        };
        waiters.add(waiter);
      }),
    clear: () => {
      caught.length = 0;
    },
    close: async () => {
      page.closeAllConnections();
      await Promise.all([
        new Promise<void>((resolve) => page.close(() => resolve())),
        new Promise<void>((resolve) => smtp.close(() => resolve())),
      ]);
    },
  };
}
