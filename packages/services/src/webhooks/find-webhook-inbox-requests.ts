import type { TDatabase } from '@ecf/db';
import type { TCertificateKeyring } from '../accounts/certificate-keyring.ts';
import {
  findWebhookInboxOfEndpoint,
  findWebhookInboxRequestRows,
  WEBHOOK_INBOX_KEEP_DAYS,
  WEBHOOK_INBOX_KEEP_REQUESTS,
} from '../persistence/index.ts';
import { isUuid } from '../shared/references.ts';
import { checkWebhookSignature, type TWebhookSignatureCheck } from './transport/index.ts';
import { openWebhookSecret } from './webhook-secrets.ts';

/** One request a test inbox received, with the signature check done for the reader. */
export type TWebhookInboxRequest = {
  id: string;
  receivedAt: Date;
  headers: Record<string, string>;
  /** The body as UTF-8 text (what was kept: the first 64 KiB). */
  body: string;
  bodyBytes: number;
  bodyTruncated: boolean;
  /** The receiver guide's check of `Svc-Signature` against the endpoint's secrets, at the reception time. */
  signature:
    TWebhookSignatureCheck | { valid: false; reason: 'body_truncated'; timestamp: null; skewSeconds: null };
};

/**
 * The requests the test inbox of one of the tenant's endpoints received (the last 7 days, at most
 * 100, newest first), each with its signature checked as docs/webhooks/receiver-guide.md says: the
 * endpoint's current secret and, after a rotation, the previous one. Null when the endpoint is not a
 * test inbox (or not the tenant's).
 */
export async function findWebhookInboxRequests(options: {
  database: TDatabase;
  tenantId: string;
  endpointId: string;
  keyring: TCertificateKeyring;
  /** At most this many (newest first; 100 when absent). */
  limit?: number;
  now?: () => Date;
}): Promise<{ keepDays: number; keepRequests: number; requests: TWebhookInboxRequest[] } | null> {
  if (!isUuid(options.endpointId)) return null;
  const inbox = await findWebhookInboxOfEndpoint(options.database, {
    tenantId: options.tenantId,
    endpointId: options.endpointId,
  });
  if (inbox === null) return null;
  const secrets = [inbox.secret, ...(inbox.previousSecret === null ? [] : [inbox.previousSecret])].map(
    (sealed) =>
      openWebhookSecret({
        keyring: options.keyring,
        endpointId: inbox.endpointId,
        keyId: sealed.keyId,
        sealed: sealed.sealed,
      }),
  );
  const rows = await findWebhookInboxRequestRows(options.database, {
    inboxId: inbox.id,
    now: (options.now ?? (() => new Date()))(),
    limit: Math.max(1, Math.min(options.limit ?? WEBHOOK_INBOX_KEEP_REQUESTS, WEBHOOK_INBOX_KEEP_REQUESTS)),
  });
  return {
    keepDays: WEBHOOK_INBOX_KEEP_DAYS,
    keepRequests: WEBHOOK_INBOX_KEEP_REQUESTS,
    requests: rows.map((row) => {
      const bodyTruncated = row.body.byteLength < row.bodyBytes;
      return {
        id: row.id,
        receivedAt: row.receivedAt,
        headers: row.headers,
        body: row.body.toString('utf8'),
        bodyBytes: row.bodyBytes,
        bodyTruncated,
        signature: bodyTruncated
          ? { valid: false, reason: 'body_truncated', timestamp: null, skewSeconds: null }
          : checkWebhookSignature({
              header: row.headers['svc-signature'],
              rawBody: row.body,
              secrets,
              nowSeconds: Math.floor(row.receivedAt.getTime() / 1000),
            }),
      };
    }),
  };
}
