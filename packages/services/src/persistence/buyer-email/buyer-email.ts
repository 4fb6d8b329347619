/**
 * What the buyer e-mail reads (the document with its account's sender data, and its e-mail
 * history) and its claim of an attempt. Its other events go through `appendDocumentEvents`.
 */
import { sqlPoolOf, type Document, type Environment, type Prisma, type TDatabase } from '@ecf/db';
import { applyWrite } from '../guarded-write.ts';
import type { TEventInput } from '../statements.ts';

export type TBuyerEmailDocument = Document & {
  tenant: {
    legalName: string;
    tradeName: string | null;
    fiscalEmail: string | null;
    buyerEmailEnvironments: Environment[];
  };
  /** The document's earlier e-mail events (of the types asked), oldest first. */
  history: Array<{ type: string; data: Prisma.JsonValue; createdAt: Date }>;
};

/** The document, its account's name, reply-to and e-mail settings, and its events of `historyTypes`; null when absent. */
export async function loadBuyerEmailDocument(
  database: TDatabase,
  input: { documentId: string; historyTypes: string[] },
): Promise<TBuyerEmailDocument | null> {
  const document = await database.document.findUnique({
    where: { id: input.documentId },
    include: {
      tenant: {
        select: { legalName: true, tradeName: true, fiscalEmail: true, buyerEmailEnvironments: true },
      },
      events: {
        where: { type: { in: input.historyTypes } },
        select: { type: true, data: true, createdAt: true },
        orderBy: { id: 'asc' },
      },
    },
  });
  if (!document) return null;
  const { events, ...rest } = document;
  return { ...rest, history: events };
}

/**
 * Records the intent of a buyer e-mail attempt (`buyer_email_intent`, its `data.attempt`) before
 * the SMTP transaction: one statement that inserts it unless that attempt is already claimed (the
 * partial unique index of migration 0007). True when this call claimed it: only then may it send.
 */
export async function claimBuyerEmailAttempt(
  database: TDatabase,
  input: { documentId: string; event: TEventInput & { data: { attempt: number } } },
): Promise<boolean> {
  const { event } = input;
  const { moved } = await applyWrite(sqlPoolOf(database), {
    key: `document:${input.documentId.toLowerCase()}`,
    parts: (suffix, parameter) => [
      `moved${suffix} AS (INSERT INTO document_events (document_id, tenant_id, type, data, created_at)
        SELECT id, tenant_id, ${parameter(event.type, 'text')}, ${parameter(JSON.stringify(event.data), 'jsonb')}, ${parameter(event.at, 'timestamptz')}
        FROM documents WHERE id = ${parameter(input.documentId, 'uuid')}
        ON CONFLICT (document_id, (data->>'attempt')) WHERE type = 'buyer_email_intent' DO NOTHING
        RETURNING document_id AS id, tenant_id)`,
    ],
  });
  return moved;
}
