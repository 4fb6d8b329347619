import { artifactData } from '@ecf/db';
import type { TDatabase } from '@ecf/db';

/** Today's date in Dominican Republic time (UTC-4), `YYYY-MM-DD`. */
export function dominicanToday(): string {
  return new Date(Date.now() - 4 * 3600_000).toISOString().slice(0, 10);
}

let sequence = 0;
/** A fresh eNCF of a type: unique within a test process. */
export function nextEncf(type = '31'): string {
  sequence += 1;
  return `E${type}${String(Date.now() % 1_000_000_0)
    .padStart(7, '0')
    .slice(-7)}${String(sequence).padStart(3, '0')}`;
}

/** A valid simplified-contract E31 of `lines` lines for the authenticated account (issuer data defaults to it). */
export function simplifiedE31(overrides: Record<string, unknown> = {}, lines = 3): Record<string, unknown> {
  const year = Number(dominicanToday().slice(0, 4));
  return {
    type: 'E31',
    encf: nextEncf('31'),
    sequenceExpirationDate: `31-12-${year + 1}`,
    issueDate: dominicanToday(),
    buyer: { rnc: '101672919', name: 'Ferretería Los Pinos SRL' },
    paymentType: 'card',
    incomeType: '01',
    lines: Array.from({ length: lines }, (_, index) => ({
      name: `Artículo ${index + 1}`,
      quantity: 2,
      unitPrice: '450.00',
      itbisRate: 18,
      itemKind: 'good',
    })),
    ...overrides,
  };
}

/** Stores a signed XML artifact as the worker's signing job would. */
export async function storeSignedXml(
  database: TDatabase,
  document: { id: string; tenantId: string },
  xml: string,
) {
  await database.artifact.create({
    data: artifactData({
      tenantId: document.tenantId,
      documentId: document.id,
      kind: 'signed_xml',
      contentType: 'application/xml',
      content: xml,
    }),
  });
}
