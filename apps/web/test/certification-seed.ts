/**
 * Test support for the certification procedures: the tax authority's real workbooks (generated for
 * one RNC each, so the tenant that uploads one must have that RNC), a signing certificate, and a
 * case, a run or a receipt written straight to the database where a test needs one in a given state.
 */
import { randomInt } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolveFromRepository } from '@ecf/config';
import {
  SEEDED_REJECTION_MESSAGE,
  seedDocument,
  seedRejectedCertificationRun,
  type CertificationStep,
  type TDatabase,
} from '@ecf/db';
import { createTestCertificate } from '@ecf/fiscal-core/testing';
import { storeTenantCertificate } from '@ecf/services';
import { TEST_CERTIFICATE_KEYRING } from './portal-harness.ts';

/** The issuer of the data-test workbook ("Set de Pruebas e-CF", 25 `ECF` rows, 4 `RFCE`). */
export const MODEL_SET_RNC = '132641566';
/** The buyer of the commercial approvals workbook (`ACEECF_Generadas`, 11 rows). */
export const MODEL_APPROVALS_RNC = '131256432';

const MODEL_FOLDER = 'packages/certification-sets/model';

/** A model workbook as the browser sends it (base64). */
export function modelWorkbookBase64(kind: 'ecf' | 'approvals'): string {
  const file =
    kind === 'ecf' ? '132641566-set-pruebas-ecf.xlsx' : '131256432-set-aprobaciones-comerciales.xlsx';
  return readFileSync(resolveFromRepository(`${MODEL_FOLDER}/${file}`)).toString('base64');
}

/**
 * Gives `rnc` to the tenant (the workbooks name their taxpayer): a tenant of an earlier test that
 * has it gets a random one (RNCs are unique).
 */
export async function claimRnc(database: TDatabase, tenantId: string, rnc: string): Promise<void> {
  await database.tenant.updateMany({
    where: { rnc, NOT: { id: tenantId } },
    data: { rnc: `1${String(randomInt(0, 100_000_000)).padStart(8, '0')}` },
  });
  await database.tenant.update({ where: { id: tenantId }, data: { rnc } });
}

/** An active signing certificate for the tenant's RNC, sealed with the test keyring. */
export async function seedSigningCertificate(
  database: TDatabase,
  tenant: { id: string; rnc: string },
): Promise<void> {
  const generated = createTestCertificate({ rnc: tenant.rnc, commonName: 'Firmante Certificación' });
  await storeTenantCertificate({
    database,
    tenantId: tenant.id,
    p12: generated.p12,
    password: generated.password,
    keyring: TEST_CERTIFICATE_KEYRING,
  });
}

/** An open case with `completed` steps done (as their runs or attestations would have left them). */
export async function seedOpenCase(
  database: TDatabase,
  tenantId: string,
  completed: readonly CertificationStep[] = [],
): Promise<string> {
  const created = await database.certificationCase.create({ data: { tenantId } });
  for (const step of completed)
    await database.certificationStepCompletion.create({
      data: { caseId: created.id, step, source: 'attestation' },
    });
  return created.id;
}

/**
 * A data run of the tenant with one item issued as an E31 in CerteCF whose document is still
 * `status` (a receipt the tax authority has not resolved: resendable).
 */
export async function seedIssuedRun(
  database: TDatabase,
  tenantId: string,
  status: 'sent' | 'queued_for_signing' | 'accepted' = 'sent',
): Promise<{ runId: string; documentId: string }> {
  const caseId = await seedOpenCase(database, tenantId, ['registered']);
  const encf = `E31${String(randomInt(1, 1_000_000_000)).padStart(10, '0')}`;
  const document = await seedDocument(database, { tenantId, environment: 'CerteCF', encf, status });
  const run = await database.certificationRun.create({
    data: {
      tenantId,
      caseId,
      part: 'data',
      source: 'workbook',
      state: 'running',
      startedAt: new Date(),
      items: {
        create: [
          {
            position: 1,
            sheetRow: 2,
            caseRef: `${MODEL_SET_RNC}${encf}`,
            type: 31,
            encf,
            document: {},
            documentId: document.id,
            state: 'issued',
          },
        ],
      },
    },
  });
  return { runId: run.id, documentId: document.id };
}

/** The tax authority's message of a rejected row, as its answers carry it. */
export const REJECTION_MESSAGE = SEEDED_REJECTION_MESSAGE;

/**
 * A data run the tax authority failed: its first row rejected (the document with the tax
 * authority's messages), the next never sent; the case failed, as the worker leaves them.
 */
export function seedRejectedRun(database: TDatabase, tenantId: string) {
  return seedRejectedCertificationRun(database, { tenantId, rnc: MODEL_SET_RNC });
}
