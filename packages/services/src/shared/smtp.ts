/**
 * Sending one e-mail over SMTP, shared by every message the services send (the buyer e-mail; the
 * portal's invitations and password resets): one message over one connection, with what a failure
 * says about the message (the server refused it, or nobody knows whether it took it) and without a
 * credential in it (the server's refusal is kept verbatim otherwise).
 *
 * The connection is driven step by step (nodemailer's SMTPConnection, not its transport) so that
 * the stage a failure happened at is known: before the transaction (connection, greeting, TLS,
 * authentication) the message was certainly not handed over; inside it, a refusal with a reply
 * code was the server's word, but a broken connection or a timeout leaves the outcome unknown (the
 * server may have taken the message just before). The whole exchange has one deadline, after
 * which the connection is closed: once it passes, this process sends nothing more of the message.
 */
import MailComposer from 'nodemailer/lib/mail-composer';
import SMTPConnection from 'nodemailer/lib/smtp-connection';
import type SMTPTransport from 'nodemailer/lib/smtp-transport';

/** A failure of `sendSmtpMessage`, with the stage it happened at. */
export class SmtpExchangeError extends Error {
  override readonly name = 'SmtpExchangeError';
  constructor(
    /** What nodemailer (or the deadline) reported. */
    readonly failure: unknown,
    /** The MAIL/RCPT/DATA transaction had begun: the message may have been handed over. */
    readonly inTransaction: boolean,
  ) {
    super(failure instanceof Error ? failure.message : String(failure));
  }
}

/** What a failure says, for the event log: no credential, the server's words otherwise. */
export function describeSmtpError(error: unknown, secrets: string[]) {
  const inTransaction = error instanceof SmtpExchangeError && error.inTransaction;
  const cause = error instanceof SmtpExchangeError ? error.failure : error;
  const smtp = cause as { code?: unknown; responseCode?: unknown; command?: unknown; message?: unknown };
  let message = typeof smtp.message === 'string' ? smtp.message : String(cause);
  for (const secret of secrets) if (secret.length > 0) message = message.split(secret).join('[REDACTED]');
  const responseCode = typeof smtp.responseCode === 'number' ? smtp.responseCode : null;
  const code = typeof smtp.code === 'string' ? smtp.code : null;
  const command = typeof smtp.command === 'string' ? smtp.command : null;
  // Refused before anything was sent: nodemailer checked the envelope itself (an unusable address).
  const refusedLocally = code === 'EENVELOPE' && command === 'API';
  // 5xx to the envelope or the data is the server's final word on this message; anything else
  // (connection refused, timeout, 4xx, authentication) may pass later.
  const permanent =
    refusedLocally ||
    (responseCode !== null && responseCode >= 500 && (code === 'EENVELOPE' || code === 'EMESSAGE'));
  return {
    code,
    responseCode,
    command,
    message: message.slice(0, 1000),
    permanent,
    // Inside the transaction and no reply code: the server may have accepted it before the break.
    outcomeUnknown: inTransaction && responseCode === null && !refusedLocally,
  };
}

/**
 * Where and how the services send e-mail; each app builds it from its environment (SMTP_* and
 * MAIL_FROM, the same variables for the worker and the portal).
 */
export type TSmtpSettings = {
  /** nodemailer SMTP connection options (host, port, secure, auth). */
  transport: SMTPTransport.Options;
  /** `From` of the messages, e.g. `Facturación electrónica <no-reply@example.com>`. */
  from: string;
  /** The deadline of one SMTP exchange (default 30 s). */
  timeoutMs?: number;
};

/** A message to one recipient, under a Message-ID chosen by the caller (stable across resends). */
export type TSmtpMessage = {
  from: string;
  to: string;
  replyTo?: string;
  subject: string;
  text: string;
  html: string;
  /** `<...@...>`: the identity a lookup finds the message by. */
  messageId: string;
};

/**
 * Sends one message over a fresh connection (closed after it). Resolves when the server accepted
 * it; rejects with a {@link SmtpExchangeError} otherwise. `deadlineMs` bounds the whole exchange.
 */
export async function sendSmtpMessage(
  transportOptions: SMTPTransport.Options,
  message: TSmtpMessage,
  deadlineMs: number,
): Promise<void> {
  const mail = new MailComposer({
    from: message.from,
    to: message.to,
    ...(message.replyTo === undefined ? {} : { replyTo: message.replyTo }),
    subject: message.subject,
    text: message.text,
    html: message.html,
    messageId: message.messageId,
  }).compile();
  const raw = await mail.build();
  const envelope = mail.getEnvelope();
  const connection = new SMTPConnection({
    connectionTimeout: deadlineMs,
    greetingTimeout: deadlineMs,
    socketTimeout: deadlineMs,
    ...transportOptions,
  });
  let inTransaction = false;
  let fail: (error: Error) => void = () => {};
  const failed = new Promise<never>((_resolve, reject) => {
    fail = reject;
  });
  // An error after the exchange ended (the socket closing) is nobody's concern.
  failed.catch(() => {});
  // The connection reports socket errors as events (an unhandled 'error' would crash the process).
  connection.on('error', (error: Error) => fail(error));
  const deadline = setTimeout(
    () => fail(Object.assign(new Error(`SMTP exchange exceeded ${deadlineMs} ms`), { code: 'ETIMEDOUT' })),
    deadlineMs,
  );
  const step = <T>(run: (done: (error: Error | null | undefined, value?: T) => void) => void): Promise<T> =>
    Promise.race([
      new Promise<T>((resolve, reject) =>
        run((error, value) => (error ? reject(error) : resolve(value as T))),
      ),
      failed,
    ]);
  try {
    await step<void>((done) => connection.connect((error) => done(error)));
    const auth = transportOptions.auth;
    if (auth?.user !== undefined && auth.pass !== undefined)
      await step<void>((done) =>
        connection.login({ user: auth.user, pass: auth.pass }, (error) => done(error)),
      );
    inTransaction = true;
    await step<SMTPConnection.SentMessageInfo>((done) =>
      connection.send({ from: envelope.from, to: envelope.to }, raw, (error, info) => done(error, info)),
    );
    connection.quit();
  } catch (error) {
    throw new SmtpExchangeError(error, inTransaction);
  } finally {
    clearTimeout(deadline);
    // Nothing more of this message leaves after this point, whatever state the exchange was in.
    connection.close();
  }
}
