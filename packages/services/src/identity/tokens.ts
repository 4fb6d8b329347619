/** Single-use secrets sent by e-mail (invitations, password resets): only their SHA-256 is stored. */
import { createHash, randomBytes } from 'node:crypto';

/** 32 random bytes, base64url (43 characters). */
export function createSecretToken(): string {
  return randomBytes(32).toString('base64url');
}

/** The stored form of a token: hex SHA-256. A slow hash is not needed for 256 random bits. */
export function hashSecretToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** An e-mail address as stored: trimmed and lower-cased (the database refuses other forms). */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}
