import type { TSubmissionContext } from '../emission/index.ts';
import { findCertificationSets, storeCertificationSet } from '../persistence/index.ts';
import { AppError } from '../shared/errors.ts';
import { readCertificationSetRequest } from './certification-request.ts';
import { assertCertificationEnvironment } from './certification-guards.ts';
import { planCertificationRun, readUploadedSet } from './plan-certification-run.ts';

export type TCertificationTestSet = {
  testSetRef: string;
  source: 'workbook' | 'json' | 'taxauth_model';
  issuerRnc: string;
  rows: number;
  sha256: string;
  createdAt: string;
};

/**
 * A test set uploaded for later runs (Partner `certification-test-sets`): the tax authority's xlsx
 * as it is (`workbookBase64`) or its JSON rows (`set`), read for the account's RNC and every row
 * validated as a run would (422 located), then stored (the same bytes twice are one set). Answers
 * its `testSetRef`.
 */
export async function uploadCertificationTestSet(
  options: TSubmissionContext & { body: unknown },
): Promise<TCertificationTestSet> {
  assertCertificationEnvironment(options.environment);
  const request = readCertificationSetRequest(options.body);
  if (
    request.source.kind === 'taxauth_model' ||
    request.source.kind === 'stored' ||
    request.source.kind === 'official'
  ) {
    throw new AppError(
      'INVALID_CERTIFICATION_REQUEST',
      'A test set is the workbook the tax authority issued for this account: send workbookBase64 or set.',
      { details: { reason: 'set_missing' } },
    );
  }
  const workbook = await readUploadedSet({ source: request.source, expectedRnc: options.tenant.rnc });
  await planCertificationRun({ ...options, workbook });
  const source = request.source;
  const set = await storeCertificationSet(options.database, {
    tenantId: options.tenant.id,
    kind: 'ecf',
    source: source.kind,
    rnc: workbook.issuerRnc,
    sha256: source.sha256,
    content:
      source.kind === 'workbook'
        ? source.content
        : Buffer.from(JSON.stringify({ ecf: source.ecf, rfce: source.rfce })),
    rows: { ecf: workbook.ecf, rfce: workbook.rfce },
    rowCount: workbook.ecf.length + workbook.rfce.length,
    now: options.now,
  });
  return {
    testSetRef: set.id,
    source: set.source,
    issuerRnc: set.rnc,
    rows: set.rowCount,
    sha256: set.sha256,
    createdAt: set.createdAt.toISOString(),
  };
}

/** The account's uploaded test sets, newest first. */
export async function findCertificationTestSets(options: {
  database: TSubmissionContext['database'];
  tenantId: string;
}): Promise<TCertificationTestSet[]> {
  const sets = await findCertificationSets(options.database, { tenantId: options.tenantId, kind: 'ecf' });
  return sets.map((set) => ({
    testSetRef: set.id,
    source: set.source,
    issuerRnc: set.rnc,
    rows: set.rowCount,
    sha256: set.sha256,
    createdAt: set.createdAt.toISOString(),
  }));
}
