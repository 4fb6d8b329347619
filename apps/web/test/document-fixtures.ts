/**
 * Documents for the portal's procedure tests: an issued document of a tenant (as emission stores
 * it, without its jobs) and a valid Try it body with a fresh eNCF.
 */
import { randomInt } from 'node:crypto';
import type { DocumentStatus, TDatabase } from '@ecf/db';
import { exampleText } from '../lib/try-it-examples.ts';

const sequence = () => String(randomInt(0, 10_000_000_000)).padStart(10, '0');

export async function seedIssuedDocument(
  database: TDatabase,
  input: {
    tenantId: string;
    environment?: 'TesteCF' | 'CerteCF' | 'eCF';
    status?: DocumentStatus;
    totalAmount?: string;
    submittedAt?: Date;
    encf?: string;
    buyerRnc?: string | null;
    trackId?: string;
  },
) {
  return database.document.create({
    data: {
      tenantId: input.tenantId,
      environment: input.environment ?? 'TesteCF',
      type: 31,
      encf: input.encf ?? `E31${sequence()}`,
      status: input.status ?? 'queued_for_signing',
      format: 'simplified',
      issueDate: new Date('2026-11-21'),
      totalAmount: input.totalAmount ?? '8731.00',
      buyerRnc: input.buyerRnc === undefined ? '101672919' : input.buyerRnc,
      submittedPayload: {},
      ...(input.trackId === undefined ? {} : { trackId: input.trackId }),
      ...(input.submittedAt === undefined ? {} : { submittedAt: input.submittedAt }),
    },
  });
}

/** A valid simplified-contract E31 (Try it's first example) with a fresh eNCF. */
export function validTryItJson(): string {
  return exampleText('e31', sequence());
}

/** Try it's broken example (a decimal with a comma, no buyer). */
export function brokenTryItJson(): string {
  return exampleText('e31-broken', sequence());
}
