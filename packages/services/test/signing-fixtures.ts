// Test fixtures of the signing use-case: the account and the simplified E31 example of
// fiscal-core's validation tests (docs/simplified-contract.md), stored the way the API stores it.
import type { Prisma, TDatabase } from '@ecf/db';
import { validateSubmission } from '@ecf/fiscal-core';
import { example } from '@ecf/fiscal-core/testing';
import { accountDataOf } from '../src/accounts/index.ts';

/** The account of fiscal-core's validation fixtures. */
export const SIGNING_TEST_TENANT: {
  rnc: string;
  legalName: string;
  tradeName: string;
  address: string;
  phones: string[];
} = {
  rnc: '131880738',
  legalName: 'Distribuidora Caribe Digital SRL',
  tradeName: 'Caribe Digital',
  address: 'Av. Winston Churchill 1099, Piantini, Santo Domingo',
  phones: ['809-555-0101'],
};

/** When the example was submitted: 11:00 in Santo Domingo on its issue date. */
export const SIGNING_TEST_SUBMITTED_AT = new Date('2026-11-21T15:00:00Z');

/** The simplified-contract E31 example (SIMPLIFIED_EXAMPLES['31']) with another eNCF. */
export function simplifiedE31(encf = 'E310000000101'): Record<string, unknown> {
  return { ...example('31'), encf };
}

/**
 * A `queued_for_signing` document. `api` (default) stores it as emission does (issue-document.ts):
 * `submittedPayload` is the body text cast to jsonb and the `submitted` event carries the validated
 * tree. `jsonb` stores only the payload (no tree), `string` the body text as a JSON string, and
 * `object` the parsed object: the fallbacks that validate again.
 */
export async function seedQueuedDocument(
  database: TDatabase,
  input: {
    tenantId: string;
    encf: string;
    body?: Record<string, unknown>;
    storage?: 'api' | 'jsonb' | 'string' | 'object';
    environment?: 'TesteCF' | 'CerteCF' | 'eCF';
  },
) {
  const body = input.body ?? simplifiedE31(input.encf);
  const rawBody = JSON.stringify(body);
  const storage = input.storage ?? 'api';
  const document = await database.document.create({
    data: {
      tenantId: input.tenantId,
      environment: input.environment ?? 'TesteCF',
      type: Number(input.encf.slice(1, 3)),
      encf: input.encf,
      status: 'queued_for_signing',
      format: 'simplified',
      issueDate: new Date('2026-11-21'),
      totalAmount: '8731.00',
      buyerRnc: '101672919',
      submittedPayload: storage === 'string' ? rawBody : (body as Prisma.InputJsonObject),
      submittedAt: SIGNING_TEST_SUBMITTED_AT,
    },
  });
  if (storage === 'api' || storage === 'jsonb') {
    await database.$executeRaw`UPDATE documents SET submitted_payload = ${rawBody}::jsonb WHERE id = ${document.id}::uuid`;
  }
  if (storage === 'api') {
    const tenant = await database.tenant.findUniqueOrThrow({ where: { id: input.tenantId } });
    const validated = await validateSubmission(rawBody, {
      now: SIGNING_TEST_SUBMITTED_AT,
      account: accountDataOf(tenant),
    });
    if (!validated.success) throw new Error(`fixture does not validate: ${JSON.stringify(validated.errors)}`);
    await database.documentEvent.create({
      data: {
        documentId: document.id,
        tenantId: input.tenantId,
        type: 'submitted',
        toStatus: 'queued_for_signing',
        data: { format: validated.data.format, warnings: [], document: validated.data.document },
      },
    });
  }
  return document;
}
