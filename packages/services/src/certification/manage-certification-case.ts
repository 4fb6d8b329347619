/**
 * A Partner's certification cases (Partner API `certification-cases`): created with the test set
 * (`testSetRef`) or an official set of the catalogue, closed to start over with another set, and
 * moved to another official set (which restarts the data tests).
 */
import type { TDatabase } from '@ecf/db';
import {
  changeCertificationCase,
  ensureOpenCertificationCase,
  findActiveCertificationRun,
  findCertificationCase,
  findCertificationSet,
  findLatestApprovalSend,
  findOpenCertificationCase,
  replaceCertificationPart,
  type TCertificationCaseRow,
} from '../persistence/index.ts';
import { AppError } from '../shared/errors.ts';
import { moveCase } from './certification-guards.ts';
import { stepsOfPart } from './certification-steps.ts';
import { findOfficialSet } from './official-sets.ts';

/** `POST …/certification-cases`: 201 a new case; the open case again (200) when it has the same set. */
export async function createCertificationCase(options: {
  database: TDatabase;
  tenantId: string;
  testSetRef?: string | undefined;
  officialSetRef?: string | undefined;
}): Promise<{ case: TCertificationCaseRow; created: boolean }> {
  const { database, tenantId } = options;
  if (options.testSetRef !== undefined) {
    const set = await findCertificationSet(database, { tenantId, setId: options.testSetRef });
    if (set === null || set.kind !== 'ecf')
      throw new AppError('NOT_FOUND', `No test set ${options.testSetRef} in this account.`, {
        details: { testSetRef: options.testSetRef },
      });
  }
  if (options.officialSetRef !== undefined && findOfficialSet(options.officialSetRef) === null) {
    throw new AppError('NOT_FOUND', `No official set ${options.officialSetRef} in the catalogue.`, {
      details: { officialSetRef: options.officialSetRef },
    });
  }
  const open = await findOpenCertificationCase(database, tenantId);
  if (open !== null) {
    const same =
      (options.testSetRef ?? null) === open.testSetId &&
      (options.officialSetRef ?? null) === open.officialSetRef;
    if (same) return { case: open, created: false };
    throw new AppError(
      'CERTIFICATION_CASE_ALREADY_OPEN',
      'The account has an open certification case with another set: close it first (certification-cases/{caseId}/close).',
      { details: { caseId: open.id, testSetRef: open.testSetId, officialSetRef: open.officialSetRef } },
    );
  }
  return ensureOpenCertificationCase(database, {
    tenantId,
    testSetId: options.testSetRef ?? null,
    officialSetRef: options.officialSetRef ?? null,
  });
}

/** The account's case by id; NOT_FOUND for another account's. */
async function caseOf(database: TDatabase, tenantId: string, caseId: string): Promise<TCertificationCaseRow> {
  const found = await findCertificationCase(database, { tenantId, caseId });
  if (found === null) throw new AppError('NOT_FOUND', `No certification case ${caseId} in this account.`);
  return found;
}

/** Refused while something of the case is on its way to the tax authority. */
async function assertIdle(database: TDatabase, row: TCertificationCaseRow): Promise<void> {
  const run = await findActiveCertificationRun(database, row.id);
  if (run !== null)
    throw new AppError('CERTIFICATION_RUN_IN_PROGRESS', 'A run of this case is in progress.', {
      details: { runId: run.id },
    });
  const send = await findLatestApprovalSend(database, row.id);
  if (send !== null && (send.state === 'queued' || send.state === 'running'))
    throw new AppError(
      'COMMERCIAL_APPROVALS_IN_PROGRESS',
      'A send of the commercial approvals is in progress.',
      {
        details: { sendId: send.id },
      },
    );
}

/**
 * `POST …/certification-cases/{caseId}/close`: closes the case so that another can be created with
 * another set. Not while a run or an approvals send is on its way, nor once approved.
 */
export async function closeCertificationCase(options: {
  database: TDatabase;
  tenantId: string;
  caseId: string;
  now: Date;
}): Promise<TCertificationCaseRow> {
  const row = await caseOf(options.database, options.tenantId, options.caseId);
  if (row.state === 'closed') return row;
  if (row.state === 'approved')
    throw new AppError('CERTIFICATION_APPROVED', 'An approved certification is not closed.', {
      details: { caseId: row.id },
    });
  await assertIdle(options.database, row);
  return changeCertificationCase(options.database, {
    caseId: row.id,
    now: options.now,
    decide: (current) => ({ step: current.step, state: 'closed', closedAt: options.now }),
  });
}

/**
 * `POST …/certification-cases/{caseId}/official-set`: another official set for the case without
 * closing it; the data tests restart (their receipts replaced).
 */
export async function changeCertificationOfficialSet(options: {
  database: TDatabase;
  tenantId: string;
  caseId: string;
  officialSetRef: string;
  now: Date;
}): Promise<TCertificationCaseRow> {
  const row = await caseOf(options.database, options.tenantId, options.caseId);
  if (row.state === 'closed')
    throw new AppError('NOT_FOUND', `No open certification case ${options.caseId}.`);
  if (row.state === 'approved')
    throw new AppError('CERTIFICATION_APPROVED', 'The certification is approved.', {
      details: { caseId: row.id },
    });
  if (findOfficialSet(options.officialSetRef) === null)
    throw new AppError('NOT_FOUND', `No official set ${options.officialSetRef} in the catalogue.`, {
      details: { officialSetRef: options.officialSetRef },
    });
  await assertIdle(options.database, row);
  await replaceCertificationPart(options.database, { caseId: row.id, part: 'data', now: options.now });
  await moveCase({
    database: options.database,
    caseId: row.id,
    now: options.now,
    revoke: stepsOfPart('data'),
    resume: true,
  });
  return changeCertificationCase(options.database, {
    caseId: row.id,
    now: options.now,
    decide: (current) => ({
      step: current.step,
      state: current.state,
      officialSetRef: options.officialSetRef,
    }),
  });
}
