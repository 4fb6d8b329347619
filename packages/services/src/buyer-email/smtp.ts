/**
 * The SMTP side of the buyer e-mail: one message through nodemailer, and what a failure says
 * without a credential in it (the server's refusal is kept verbatim otherwise).
 */
import nodemailer from 'nodemailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport';

/** A failed SMTP exchange: permanent when the server refused the message or a recipient with a 5xx. */
export class BuyerEmailError extends Error {
  override readonly name = 'BuyerEmailError';
}

export function describeSmtpError(error: unknown, secrets: string[]) {
  const smtp = error as { code?: unknown; responseCode?: unknown; command?: unknown; message?: unknown };
  let message = typeof smtp.message === 'string' ? smtp.message : String(error);
  for (const secret of secrets) if (secret.length > 0) message = message.split(secret).join('[REDACTED]');
  const responseCode = typeof smtp.responseCode === 'number' ? smtp.responseCode : null;
  const code = typeof smtp.code === 'string' ? smtp.code : null;
  // 5xx to the envelope or the data is the server's final word on this message; anything else
  // (connection refused, timeout, 4xx, authentication) may pass later.
  const permanent =
    responseCode !== null && responseCode >= 500 && (code === 'EENVELOPE' || code === 'EMESSAGE');
  return {
    code,
    responseCode,
    command: typeof smtp.command === 'string' ? smtp.command : null,
    message: message.slice(0, 1000),
    permanent,
  };
}

/** A message to one recipient. */
export type TSmtpMessage = {
  from: string;
  to: string;
  replyTo?: string;
  subject: string;
  text: string;
  html: string;
};

/** Sends one message over a fresh connection (closed after it); the server's message id. */
export async function sendSmtpMessage(
  transportOptions: SMTPTransport.Options,
  message: TSmtpMessage,
): Promise<string> {
  const transport = nodemailer.createTransport({
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
    ...transportOptions,
  });
  try {
    const info = await transport.sendMail(message);
    return info.messageId;
  } finally {
    transport.close();
  }
}
