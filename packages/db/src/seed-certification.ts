// Seed helper (issue 19): a certification data run the tax authority failed, as the worker leaves
// it, written straight to the database for the portal's tests (the procedures' and the e2e spec's).
import { randomInt } from 'node:crypto';
import type { TDatabase } from './client.ts';
import { seedDocument } from './seed.ts';

/** The tax authority's message on the rejected row (`Mensajes` of its answer). */
export const SEEDED_REJECTION_MESSAGE = {
  codigo: '613',
  valor: 'El valor de MontoTotal (1180.00) no coincide con el valor (1180) del set de pruebas.',
};

/**
 * A failed case with a failed data run: its first row (sheet row 2, `caseRef` `rnc + eNCF`) rejected
 * with {@link SEEDED_REJECTION_MESSAGE} on its document, the next never sent (`stopped`).
 */
export async function seedRejectedCertificationRun(
  database: TDatabase,
  input: { tenantId: string; rnc: string },
): Promise<{ runId: string; documentId: string; encf: string }> {
  const { tenantId, rnc } = input;
  const caseRow = await database.certificationCase.create({
    data: { tenantId, state: 'failed', step: 'data_tests_ecf' },
  });
  await database.certificationStepCompletion.create({
    data: { caseId: caseRow.id, step: 'registered', source: 'set' },
  });
  const sequence = randomInt(1, 1_000_000_000);
  const encf = `E31${String(sequence).padStart(10, '0')}`;
  const next = `E31${String(sequence + 1).padStart(10, '0')}`;
  const document = await seedDocument(database, {
    tenantId,
    environment: 'CerteCF',
    encf,
    status: 'rejected',
  });
  await database.document.update({
    where: { id: document.id },
    data: { taxauthMessages: [SEEDED_REJECTION_MESSAGE] },
  });
  const detail = { code: 'TAXAUTH_REJECTED', messages: [SEEDED_REJECTION_MESSAGE] };
  const run = await database.certificationRun.create({
    data: {
      tenantId,
      caseId: caseRow.id,
      part: 'data',
      source: 'workbook',
      state: 'failed',
      startedAt: new Date(),
      finishedAt: new Date(),
      failure: {
        code: 'TAXAUTH_REJECTED',
        message: `The tax authority rejected ${encf} (row 2): restart the data tests with a new set.`,
        encf,
        position: 1,
        row: 2,
        detail,
      },
      items: {
        create: [
          {
            position: 1,
            sheetRow: 2,
            caseRef: `${rnc}${encf}`,
            type: 31,
            encf,
            document: {},
            documentId: document.id,
            state: 'rejected',
            detail,
          },
          {
            position: 2,
            sheetRow: 3,
            caseRef: `${rnc}${next}`,
            type: 31,
            encf: next,
            document: {},
            state: 'stopped',
          },
        ],
      },
    },
  });
  return { runId: run.id, documentId: document.id, encf };
}
