/**
 * Webhook signing secrets: generated here, shown once, stored sealed with the certificate keyring
 * (the clear value is needed to sign). The associated data binds a sealed secret to its endpoint, so
 * a sealed value copied to another row does not open. Never log a secret or put it in an error.
 */
import { randomBytes } from 'node:crypto';
import type { TCertificateKeyring } from '../accounts/certificate-keyring.ts';

const SECRET_PREFIX = 'whsec_';

/** A new secret: `whsec_` + 32 random bytes in base64url. */
export function generateWebhookSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(32).toString('base64url')}`;
}

function associatedDataOf(endpointId: string): string {
  return `webhook-secret:${endpointId}`;
}

/** Seals `secret` for the endpoint `endpointId` with the keyring's current key. */
export function sealWebhookSecret(options: {
  keyring: TCertificateKeyring;
  endpointId: string;
  secret: string;
}): { keyId: string; sealed: Uint8Array<ArrayBuffer> } {
  return options.keyring.seal(Buffer.from(options.secret, 'utf8'), associatedDataOf(options.endpointId));
}

/** Opens a sealed secret of `endpointId` (throws `CERTIFICATE_DECRYPTION_FAILED` when it cannot). */
export function openWebhookSecret(options: {
  keyring: TCertificateKeyring;
  endpointId: string;
  keyId: string;
  sealed: Uint8Array;
}): string {
  return options.keyring
    .open(options.keyId, options.sealed, associatedDataOf(options.endpointId))
    .toString('utf8');
}
