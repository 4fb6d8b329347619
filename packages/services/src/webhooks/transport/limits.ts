/**
 * The webhook transport's numbers, from the spec's Events section and its Limits table ("Webhook":
 * 8 attempts, 10 s timeout, 64 KiB response read, signature tolerance 5 minutes; URL 2048).
 */

/** The User-Agent of the direct-account system. */
export const WEBHOOK_USER_AGENT = 'Svc-Webhooks/1.0';
/** One attempt's time budget: connecting, the request, the answer's headers and the body read. */
export const WEBHOOK_TIMEOUT_MS = 10_000;
/** At most this much of an answer is read; a longer answer makes the attempt fail (`response_too_large`). */
export const WEBHOOK_RESPONSE_LIMIT_BYTES = 64 * 1024;
/** The first bytes of the answer kept for the deliveries log. */
export const WEBHOOK_RESPONSE_EXCERPT_BYTES = 512;
/** Attempts per delivery before it is `failed` (a replay of an exhausted delivery adds one). */
export const WEBHOOK_MAX_ATTEMPTS = 8;
/** The longest accepted endpoint URL, in characters. */
export const WEBHOOK_URL_MAX_LENGTH = 2048;
/** How far a receiver should accept `t=` from its clock (the receiver guide's 5 minutes). */
export const WEBHOOK_SIGNATURE_TOLERANCE_SECONDS = 300;
