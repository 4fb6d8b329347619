/**
 * The buyer's link to the printed representation: `GET /ri/{token}`. The token is the credential
 * (no API key), so it is signed (HMAC-SHA256 under `RI_LINK_SECRET`) and says exactly which
 * document it opens, in which environment, and until when.
 *
 * Layout: base64url(payload) `.` base64url(HMAC-SHA256(secret, "ri1." + payload part)). The payload
 * is 26 bytes: version (1), environment (1), documentId (16, the UUID's bytes), issued-at and
 * expires-at (4 each, Unix seconds, big-endian). About 80 characters in all, far below the spec's
 * 1,300 and Fastify's default 100-character route parameter.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Environment } from '@ecf/db';

/** Spec Limits: the token is at most 1,300 characters. */
export const RI_LINK_MAX_LENGTH = 1300;
/** Spec Limits: a link is valid 30 days from sending. */
export const RI_LINK_VALIDITY_SECONDS = 30 * 24 * 3600;

const VERSION = 1;
const ENVIRONMENTS: readonly Environment[] = ['TesteCF', 'CerteCF', 'eCF'];
const PAYLOAD_BYTES = 26;
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{35}\.[A-Za-z0-9_-]{43}$/;
const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export type TRiLinkPayload = {
  documentId: string;
  environment: Environment;
  issuedAt: Date;
  expiresAt: Date;
};

/** What a token is: valid (with its payload), expired (authentic but past `expiresAt`), or invalid (anything else). */
export type TRiLinkCheck =
  | { status: 'valid'; payload: TRiLinkPayload }
  | { status: 'expired'; payload: TRiLinkPayload }
  | { status: 'invalid' };

function signatureOf(payloadPart: string, secret: string): Buffer {
  return createHmac('sha256', secret).update(`ri1.${payloadPart}`).digest();
}

/** Signs a link for `documentId` valid from `issuedAt` for 30 days (or `validitySeconds`). */
export function createRiLinkToken(
  input: { documentId: string; environment: Environment; issuedAt: Date; validitySeconds?: number },
  secret: string,
): { token: string; expiresAt: Date } {
  const documentId = input.documentId.toLowerCase();
  if (!UUID_PATTERN.test(documentId)) throw new TypeError('createRiLinkToken: documentId must be a UUID');
  const issued = Math.floor(input.issuedAt.getTime() / 1000);
  const expires = issued + (input.validitySeconds ?? RI_LINK_VALIDITY_SECONDS);
  const payload = Buffer.alloc(PAYLOAD_BYTES);
  payload.writeUInt8(VERSION, 0);
  payload.writeUInt8(ENVIRONMENTS.indexOf(input.environment), 1);
  Buffer.from(documentId.replaceAll('-', ''), 'hex').copy(payload, 2);
  payload.writeUInt32BE(issued, 18);
  payload.writeUInt32BE(expires, 22);
  const payloadPart = payload.toString('base64url');
  const token = `${payloadPart}.${signatureOf(payloadPart, secret).toString('base64url')}`;
  return { token, expiresAt: new Date(expires * 1000) };
}

/**
 * Checks a token: shape, then the signature (constant-time), then the payload, then the clock. An
 * expired token is reported as such only when its signature is genuine (a forged one is invalid).
 */
export function checkRiLinkToken(token: string, secret: string, now: Date): TRiLinkCheck {
  if (token.length > RI_LINK_MAX_LENGTH || !TOKEN_PATTERN.test(token)) return { status: 'invalid' };
  const [payloadPart = '', signaturePart = ''] = token.split('.');
  const expected = signatureOf(payloadPart, secret);
  const given = Buffer.from(signaturePart, 'base64url');
  // Re-encoding catches non-canonical base64url (trailing bits) that would decode to the same bytes.
  if (
    given.length !== expected.length ||
    given.toString('base64url') !== signaturePart ||
    !timingSafeEqual(given, expected)
  )
    return { status: 'invalid' };
  const payload = Buffer.from(payloadPart, 'base64url');
  if (payload.length !== PAYLOAD_BYTES || payload.readUInt8(0) !== VERSION) return { status: 'invalid' };
  const environment = ENVIRONMENTS[payload.readUInt8(1)];
  if (environment === undefined) return { status: 'invalid' };
  const hex = payload.subarray(2, 18).toString('hex');
  const documentId = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  const decoded: TRiLinkPayload = {
    documentId,
    environment,
    issuedAt: new Date(payload.readUInt32BE(18) * 1000),
    expiresAt: new Date(payload.readUInt32BE(22) * 1000),
  };
  return now.getTime() >= decoded.expiresAt.getTime()
    ? { status: 'expired', payload: decoded }
    : { status: 'valid', payload: decoded };
}
