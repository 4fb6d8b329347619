/** What the buyer e-mail writes in a document's log, its settings and what a step reports. */
import { createHash } from 'node:crypto';
import type SMTPTransport from 'nodemailer/lib/smtp-transport';
import type { TOperatorNotification } from '../persistence/index.ts';

/** A failed SMTP exchange of a buyer e-mail (the job is retried). */
export class BuyerEmailError extends Error {
  override readonly name = 'BuyerEmailError';
}

/** Event types of the buyer e-mail in a document's log. */
export const BUYER_EMAIL_EVENT_TYPES = {
  /**
   * Committed BEFORE the SMTP transaction: `{ attempt, to, messageId, linkExpiresAt, at }`. One per
   * attempt (a unique index), so two runs cannot both send an attempt. An intent without outcome is
   * a send whose result nobody recorded (a crash): it is checked before anything is resent.
   */
  INTENT: 'buyer_email_intent',
  /** The SMTP server took the message: `{ attempt, to, messageId, linkExpiresAt, at }` (+ `resolvedBy`). */
  SENT: 'buyer_email_sent',
  /**
   * An attempt failed: `{ attempt, code, responseCode, command, message, permanent, outcomeUnknown, at }`
   * (no credentials). `outcomeUnknown`: the connection broke inside the SMTP transaction, so the
   * server may have the message; it is checked like an intent without outcome.
   */
  FAILED: 'buyer_email_failed',
  /**
   * An attempt whose outcome cannot be known (no message lookup configured): not resent, so the
   * buyer gets the message at most once; an operator is notified. `{ attempt, to, messageId, reason, at }`.
   */
  UNCERTAIN: 'buyer_email_uncertain',
} as const;

/** The operator notification of a buyer e-mail that may or may not have been delivered. */
export const BUYER_EMAIL_UNCERTAIN_NOTIFICATION_KIND = 'buyer_email_uncertain';

/** How long an intent without outcome may still be running in another process, by default. */
export const DEFAULT_BUYER_EMAIL_IN_FLIGHT_MS = 60_000;
/** The whole SMTP exchange of one attempt must end within this, by default. */
export const DEFAULT_SMTP_TIMEOUT_MS = 30_000;

/**
 * Asks the mail provider whether it accepted a message with this Message-ID (angle brackets
 * included): true when it did, false when it has none; throws when it cannot tell now (the job is
 * retried). See `createHttpMessageLookup`.
 */
export type TMessageLookup = (messageId: string) => Promise<boolean>;

/** SMTP settings and the link's ingredients; the worker builds them from its environment. */
export type TBuyerEmailOptions = {
  /** nodemailer SMTP connection options (host, port, secure, auth). */
  transport: SMTPTransport.Options;
  /** `From` of the message, e.g. `Facturación electrónica <no-reply@example.com>`. */
  from: string;
  /** Base address the buyer opens (`{publicBaseUrl}/ri/{token}`), no trailing slash needed. */
  publicBaseUrl: string;
  /** HMAC key of the link (RI_LINK_SECRET); the API checks links with the same key. */
  linkSecret: string;
  /**
   * The check before a resend. Without it an attempt whose outcome is unknown is never resent
   * (at most once) and is recorded `buyer_email_uncertain` with an operator notification.
   */
  lookupMessage?: TMessageLookup;
  /** The deadline of one SMTP exchange (default 30 s). */
  smtpTimeoutMs?: number;
  /** How long an intent without outcome may still be running elsewhere (default 60 s; above `smtpTimeoutMs`). */
  inFlightMs?: number;
  /** Tells an operator (the worker logs it at warn). */
  notifyOperator?: (notification: TOperatorNotification) => void | Promise<void>;
  now?: () => Date;
};

export type TBuyerEmailOutcome =
  | 'sent'
  | 'already_sent'
  | 'not_found'
  | 'not_enabled'
  | 'not_deliverable'
  | 'no_buyer_email'
  | 'not_signed'
  | 'failed_permanently'
  /** An attempt may have reached the server and cannot be checked: not resent. */
  | 'uncertain'
  /** An earlier attempt may still be running elsewhere: ask again after `retryAfterSeconds`. */
  | 'in_flight'
  /** Another run claimed this attempt at the same moment: it sends. */
  | 'claim_lost';

export type TBuyerEmailReport = {
  documentId: string;
  outcome: TBuyerEmailOutcome;
  attempt?: number;
  /** `in_flight`: when to run again. */
  retryAfterSeconds?: number;
  /** How a `sent` was established when it was not this run's own SMTP answer. */
  resolvedBy?: 'message_lookup';
  /** `uncertain`: the notification an operator was sent. */
  notification?: TOperatorNotification;
};

/**
 * The Message-ID of the buyer e-mail of a document to a recipient: the same for every attempt, so
 * a resend is recognisable and a lookup finds whichever attempt the server took. The domain is the
 * sender's (`From`), as RFC 5322 suggests; the recipient is hashed (no address in a header id).
 */
export function buyerEmailMessageIdOf(input: {
  documentId: string;
  recipient: string;
  from: string;
}): string {
  const recipient = createHash('sha256')
    .update(input.recipient.trim().toLowerCase())
    .digest('hex')
    .slice(0, 16);
  const domain = /@([A-Za-z0-9.-]+)>?\s*$/.exec(input.from.trim())?.[1] ?? 'ecf.invalid';
  return `<buyer-email.${input.documentId.toLowerCase()}.${recipient}@${domain}>`;
}
