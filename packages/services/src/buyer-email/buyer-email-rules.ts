/** What the buyer e-mail writes in a document's log, its settings and what a step reports. */
import type SMTPTransport from 'nodemailer/lib/smtp-transport';

/** Event types of the buyer e-mail in a document's log. */
export const BUYER_EMAIL_EVENT_TYPES = {
  /** The SMTP server took the message: `{ attempt, to, messageId, linkExpiresAt, at }`. */
  SENT: 'buyer_email_sent',
  /** An attempt failed: `{ attempt, code, responseCode, message, permanent, at }` (no credentials). */
  FAILED: 'buyer_email_failed',
} as const;

/** SMTP settings and the link's ingredients; the worker builds them from its environment. */
export type TBuyerEmailOptions = {
  /** nodemailer SMTP transport options (host, port, secure, auth). */
  transport: SMTPTransport.Options;
  /** `From` of the message, e.g. `Facturación electrónica <no-reply@example.com>`. */
  from: string;
  /** Base address the buyer opens (`{publicBaseUrl}/ri/{token}`), no trailing slash needed. */
  publicBaseUrl: string;
  /** HMAC key of the link (RI_LINK_SECRET); the API checks links with the same key. */
  linkSecret: string;
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
  | 'failed_permanently';

export type TBuyerEmailReport = { documentId: string; outcome: TBuyerEmailOutcome; attempt?: number };
