/**
 * A local SMTP server that accepts every message (no authentication, no relay) and keeps the last
 * N in memory, with a small HTTP page listing them. For development (scripts/up.sh) and tests:
 * nothing ever leaves the machine.
 *
 * It also answers "did you accept the message with this Message-ID?" over HTTP
 * (`GET /api/messages/by-message-id/{id}`), the model of a mail provider's message search (SES,
 * Postmark and SendGrid have one): the worker asks it before it resends a buyer e-mail whose
 * outcome it does not know.
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
  /**
   * How many Message-IDs the lookup remembers (oldest forgotten first), independently of the
   * messages kept. Default 100,000.
   */
  keepMessageIds?: number;
  /**
   * A slow server: the message is accepted (stored, found by the lookup) at the end of DATA, and
   * the `250` answer is sent this much later. A client that dies in between never learns it was
   * accepted. Default 0.
   */
  acceptDelayMs?: number;
};

/** What the lookup says of an accepted Message-ID. */
export type TAcceptedMessageId = {
  messageId: string;
  /** How many messages with this Message-ID were accepted (a resend is a second one). */
  count: number;
  /** The catcher's id of the first of them. */
  id: number;
  firstAcceptedAt: Date;
  envelopeTo: string[];
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
  /**
   * Connections whose message has not been accepted yet (connected, in the SMTP dialogue or the
   * DATA): a client that dies now leaves nothing here. Crash tests kill their sender at this point.
   */
  sessionsBeforeAcceptance: () => number;
  /** What was accepted under this Message-ID (angle brackets optional); undefined when nothing. */
  findByMessageId: (messageId: string) => TAcceptedMessageId | undefined;
  /** Forgets every message (and every Message-ID). */
  clear: () => void;
  close: () => Promise<void>;
};

/** Starts the SMTP server and the page; resolves once both listen. */
export async function startMailCatcher(options: TMailCatcherOptions = {}): Promise<TMailCatcher> {
  const host = options.host ?? '127.0.0.1';
  const keep = options.keep ?? 200;
  const caught: TCaughtMessage[] = [];
  const waiters = new Set<(message: TCaughtMessage) => void>();
  const keepMessageIds = options.keepMessageIds ?? 100_000;
  // Map keeps insertion order: the first key is the oldest Message-ID.
  const acceptedIds = new Map<string, TAcceptedMessageId>();
  const delayedAnswers = new Set<NodeJS.Timeout>();
  // Sessions (by id) that have not had a message accepted since they connected.
  const beforeAcceptance = new Set<string>();
  let nextId = 1;

  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    size: options.maxMessageBytes ?? 10 * 1024 * 1024,
    logger: false,
    // Close does not wait for idle clients longer than this.
    closeTimeout: 1000,
    onConnect(session, callback) {
      beforeAcceptance.add(session.id);
      callback();
    },
    onClose(session) {
      beforeAcceptance.delete(session.id);
    },
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
        beforeAcceptance.delete(session.id);
        if (caught.length > keep) caught.splice(0, caught.length - keep);
        const messageId = normalizeMessageId(message.headers.get('message-id') ?? '');
        if (messageId !== '') {
          const known = acceptedIds.get(messageId);
          if (known) known.count += 1;
          else {
            acceptedIds.set(messageId, {
              messageId,
              count: 1,
              id: message.id,
              firstAcceptedAt: message.receivedAt,
              envelopeTo: message.envelopeTo,
            });
            if (acceptedIds.size > keepMessageIds) {
              const oldest = acceptedIds.keys().next();
              if (oldest.done !== true) acceptedIds.delete(oldest.value);
            }
          }
        }
        for (const waiter of [...waiters]) waiter(message);
        const answer = () => callback(null, `queued as ${message.id}`);
        if ((options.acceptDelayMs ?? 0) > 0) {
          const timer = setTimeout(() => {
            delayedAnswers.delete(timer);
            answer();
          }, options.acceptDelayMs);
          delayedAnswers.add(timer);
        } else answer();
      });
      stream.on('error', (error: Error) => callback(error));
    },
  });

  // A client that dies mid-dialogue (a killed worker) resets its connection: that is the client's
  // business, not a failure of the catcher (an unhandled 'error' would stop the process).
  smtp.on('error', () => {});

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
    const byMessageId = /^\/api\/messages\/by-message-id\/(.+)$/.exec(url.pathname);
    if (byMessageId) {
      let wanted: string;
      try {
        wanted = normalizeMessageId(decodeURIComponent(byMessageId[1] ?? ''));
      } catch {
        return send(400, 'application/json', JSON.stringify({ found: false, error: 'malformed Message-ID' }));
      }
      const found = acceptedIds.get(wanted);
      if (!found) return send(404, 'application/json', JSON.stringify({ found: false, messageId: wanted }));
      return send(
        200,
        'application/json',
        JSON.stringify({ found: true, ...found, firstAcceptedAt: found.firstAcceptedAt.toISOString() }),
      );
    }
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
    sessionsBeforeAcceptance: () => beforeAcceptance.size,
    findByMessageId: (messageId) => acceptedIds.get(normalizeMessageId(messageId)),
    clear: () => {
      caught.length = 0;
      acceptedIds.clear();
    },
    close: async () => {
      for (const timer of delayedAnswers) clearTimeout(timer);
      delayedAnswers.clear();
      page.closeAllConnections();
      await Promise.all([
        new Promise<void>((resolve) => page.close(() => resolve())),
        new Promise<void>((resolve) => smtp.close(() => resolve())),
      ]);
    },
  };
}

/** A Message-ID as the lookup keys it: without angle brackets or surrounding blanks. */
function normalizeMessageId(value: string): string {
  return value
    .trim()
    .replace(/^<(.*)>$/, '$1')
    .trim();
}
