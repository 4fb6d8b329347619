import type { Environment, Prisma, TDatabase } from '@ecf/db';
import { BUYER_EMAIL_EVENT_TYPES } from '../buyer-email/buyer-email-rules.ts';
import {
  findDocumentArtifactRows,
  findDocumentDeliveryRow,
  findDocumentEventRows,
  type TDocumentEventRow,
} from '../persistence/index.ts';
import { getDocument } from './get-document.ts';
import { toIssuedDocument } from './find-issued-documents.ts';
import { isPrintable } from './printing-status.ts';

/** A message of the tax authority as its answers carry them (`{ codigo, valor }`). */
export type TTaxauthMessage = { code: string; message: string };

/** Scalar members of an event's data worth showing (codes, reasons, attempts, trackIds...). */
type TEventDetails = Record<string, string | number | boolean | null>;

/** Members never shown: the validated tree and warnings of `submitted`, and anything bulky. */
const HIDDEN_EVENT_MEMBERS = new Set(['document', 'warnings', 'taxauthMessages', 'messages']);

function recordOf(data: Prisma.JsonValue | undefined): Record<string, Prisma.JsonValue | undefined> {
  return data !== null && data !== undefined && typeof data === 'object' && !Array.isArray(data) ? data : {};
}

function detailsOf(data: Prisma.JsonValue): TEventDetails {
  const details: TEventDetails = {};
  for (const [key, value] of Object.entries(recordOf(data))) {
    if (HIDDEN_EVENT_MEMBERS.has(key)) continue;
    if (typeof value === 'string') details[key] = value.length > 300 ? `${value.slice(0, 300)}…` : value;
    else if (typeof value === 'number' || typeof value === 'boolean' || value === null) details[key] = value;
  }
  return details;
}

/** A scalar member as text ('' for anything else). */
function scalarText(value: Prisma.JsonValue | undefined): string {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
    ? String(value)
    : '';
}

/** `code: message` of an error record's members, or null when it has neither. */
function errorTextOf(
  code: Prisma.JsonValue | undefined,
  message: Prisma.JsonValue | undefined,
): string | null {
  return [scalarText(code), scalarText(message)].filter((part) => part !== '').join(': ') || null;
}

/** The tax authority's messages of an event (`taxauthMessages` or `messages`: `{ codigo, valor }` items). */
function messagesOf(data: Prisma.JsonValue): TTaxauthMessage[] {
  const record = recordOf(data);
  const list = record['taxauthMessages'] ?? record['messages'];
  if (!Array.isArray(list)) return [];
  return list.flatMap((item) => {
    const message = recordOf(item);
    const code = scalarText(message['codigo'] ?? message['code']);
    const text = scalarText(message['valor'] ?? message['message']);
    if (text === '') return [];
    return [{ code, message: text }];
  });
}

function timelineEntryOf(event: TDocumentEventRow) {
  return {
    id: event.id.toString(),
    type: event.type,
    fromStatus: event.fromStatus,
    toStatus: event.toStatus,
    at: event.createdAt.toISOString(),
    taxauthMessages: messagesOf(event.data),
    details: detailsOf(event.data),
  };
}

const BUYER_EMAIL_OUTCOMES: Record<string, 'sent' | 'failed' | 'uncertain'> = {
  [BUYER_EMAIL_EVENT_TYPES.SENT]: 'sent',
  [BUYER_EMAIL_EVENT_TYPES.FAILED]: 'failed',
  [BUYER_EMAIL_EVENT_TYPES.UNCERTAIN]: 'uncertain',
};

/**
 * The buyer e-mail attempts read from the event log: one per attempt number, from its intent, with
 * the latest outcome recorded for it (`pending` while an intent has none).
 */
function buyerEmailAttemptsOf(events: readonly TDocumentEventRow[]) {
  const attempts = new Map<
    number,
    {
      attempt: number;
      to: string | null;
      startedAt: string;
      outcome: 'pending' | 'sent' | 'failed' | 'uncertain';
      outcomeAt: string | null;
      error: string | null;
    }
  >();
  for (const event of events) {
    const data = recordOf(event.data);
    const attempt = typeof data['attempt'] === 'number' ? data['attempt'] : null;
    if (attempt === null) continue;
    if (event.type === BUYER_EMAIL_EVENT_TYPES.INTENT) {
      attempts.set(attempt, {
        attempt,
        to: typeof data['to'] === 'string' ? data['to'] : null,
        startedAt: event.createdAt.toISOString(),
        outcome: 'pending',
        outcomeAt: null,
        error: null,
      });
      continue;
    }
    const outcome = BUYER_EMAIL_OUTCOMES[event.type];
    const entry = attempts.get(attempt);
    if (outcome === undefined || entry === undefined) continue;
    entry.outcome = outcome;
    entry.outcomeAt = event.createdAt.toISOString();
    entry.error = outcome === 'sent' ? null : errorTextOf(data['code'] ?? data['reason'], data['message']);
  }
  return [...attempts.values()].sort((first, second) => first.attempt - second.attempt);
}

/**
 * One issued document as its page shows it: the document (as the issued list gives it, plus the
 * tax authority's latest messages and last error), its status timeline from the append-only event
 * log, the stored artifacts (metadata only), the receiver delivery with its ARECF, and the buyer
 * e-mail attempts. Another tenant's or environment's document is NOT_FOUND, like an absent one.
 */
export async function getDocumentDetails(options: {
  database: TDatabase;
  tenantId: string;
  environment: Environment;
  documentId: string;
}) {
  const document = await getDocument({ ...options, reference: options.documentId });
  const scope = { tenantId: options.tenantId, documentId: document.id };
  const [events, artifacts, delivery] = await Promise.all([
    findDocumentEventRows(options.database, scope),
    findDocumentArtifactRows(options.database, scope),
    findDocumentDeliveryRow(options.database, scope),
  ]);
  const arecf =
    delivery?.arecfArtifactId === null || delivery === null
      ? null
      : (artifacts.find((artifact) => artifact.id === delivery.arecfArtifactId) ?? null);
  const lastError = recordOf(document.lastError);
  return {
    document: {
      ...toIssuedDocument(document),
      environment: document.environment,
      qrUrl: document.qrUrl,
      signatureDate: document.signatureDate?.toISOString() ?? null,
      attempts: document.attempts,
      contingencySince: document.contingencySince?.toISOString() ?? null,
      taxauthMessages: messagesOf({ taxauthMessages: document.taxauthMessages }),
      lastError:
        document.lastError === null
          ? null
          : {
              code: typeof lastError['code'] === 'string' ? lastError['code'] : 'UNKNOWN',
              message: typeof lastError['message'] === 'string' ? lastError['message'] : '',
            },
      isSigned: artifacts.some((artifact) => artifact.kind === 'signed_xml'),
      /** The printed representation can be handed out (rule 22): the PDF download works. */
      isPrintable: isPrintable(document),
    },
    timeline: events.map(timelineEntryOf),
    artifacts: artifacts.map((artifact) => ({
      id: artifact.id,
      kind: artifact.kind,
      contentType: artifact.contentType,
      sha256: artifact.sha256,
      sizeBytes: artifact.sizeBytes,
      createdAt: artifact.createdAt.toISOString(),
    })),
    receiverDelivery:
      delivery === null
        ? null
        : {
            status: delivery.status,
            targetUrl: delivery.targetUrl,
            attempts: delivery.attempts,
            lastError:
              delivery.lastError === null
                ? null
                : errorTextOf(recordOf(delivery.lastError)['code'], recordOf(delivery.lastError)['message']),
            nextAttemptAt: delivery.nextAttemptAt?.toISOString() ?? null,
            reconciledAt: delivery.reconciledAt?.toISOString() ?? null,
            updatedAt: delivery.updatedAt.toISOString(),
            arecf:
              arecf === null
                ? null
                : { artifactId: arecf.id, sha256: arecf.sha256, receivedAt: arecf.createdAt.toISOString() },
          },
    buyerEmailAttempts: buyerEmailAttemptsOf(events),
  };
}

/** What `getDocumentDetails` answers. */
export type TDocumentDetails = Awaited<ReturnType<typeof getDocumentDetails>>;
