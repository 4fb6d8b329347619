/** What the buyer e-mail reads: the document with its account's sender data, and its e-mail history. */
import type { Document, Environment, Prisma, TDatabase } from '@ecf/db';

export type TBuyerEmailDocument = Document & {
  tenant: {
    legalName: string;
    tradeName: string | null;
    fiscalEmail: string | null;
    buyerEmailEnvironments: Environment[];
  };
  /** The document's earlier e-mail events (sent or failed), oldest first. */
  history: Array<{ type: string; data: Prisma.JsonValue }>;
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
        select: { type: true, data: true },
        orderBy: { id: 'asc' },
      },
    },
  });
  if (!document) return null;
  const { events, ...rest } = document;
  return { ...rest, history: events };
}
