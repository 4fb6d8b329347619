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

/** The e-CF types a case may declare (`ecfTypes`): every type the tax authority certifies. */
export const CERTIFICATION_ECF_TYPES = ['31', '32', '33', '34', '41', '43', '44', '45', '46', '47'] as const;

/** What a Partner declares when creating a case; kept on the case and shown with it. */
export type TCaseDeclarations = {
  /** e-CF types the account will issue, `31` or `E31`; kept as `31`, sorted, once each. */
  ecfTypes?: readonly string[] | undefined;
  b2bSimulation?: boolean | undefined;
  notes?: string | undefined;
  actorRef?: string | undefined;
};

/** `ecfTypes` as stored (`E31` → `31`, sorted, once each); 400 naming the member for a type that is none. */
function ecfTypesOf(types: readonly string[]): string[] {
  const normalized = types.map((type) => type.replace(/^E/i, ''));
  const unknown = normalized.findIndex(
    (type) => !(CERTIFICATION_ECF_TYPES as readonly string[]).includes(type),
  );
  if (unknown !== -1)
    throw new AppError(
      'INVALID_PARTNER_PAYLOAD',
      `ecfTypes.${unknown}: ${types[unknown]} is not an e-CF type (${CERTIFICATION_ECF_TYPES.join(', ')}).`,
      {
        details: {
          path: `ecfTypes.${unknown}`,
          issues: [
            {
              path: `ecfTypes.${unknown}`,
              code: 'invalid_value',
              message: `one of ${CERTIFICATION_ECF_TYPES.join(', ')}`,
            },
          ],
        },
      },
    );
  return [...new Set(normalized)].sort();
}

/**
 * `POST …/certification-cases`: 201 a new case with its set (`testSetRef`, an uploaded set, or
 * `officialSetRef`, a set of the catalogue; one of them at most) and what the Partner declares
 * (`ecfTypes`, `b2bSimulation`, `notes`, `actorRef`: stored and shown with the case). The open case
 * again (200) when the request names its set and declares nothing it does not already hold; 409
 * `CERTIFICATION_CASE_ALREADY_OPEN` otherwise (`details.members`: the declarations that differ).
 */
export async function createCertificationCase(options: {
  database: TDatabase;
  tenantId: string;
  testSetRef?: string | undefined;
  officialSetRef?: string | undefined;
  declared?: TCaseDeclarations;
}): Promise<{ case: TCertificationCaseRow; created: boolean }> {
  const { database, tenantId } = options;
  if (options.testSetRef !== undefined && options.officialSetRef !== undefined)
    throw new AppError(
      'INVALID_PARTNER_PAYLOAD',
      'officialSetRef: send testSetRef (an uploaded set) or officialSetRef (a set of the catalogue), not both.',
      {
        details: {
          path: 'officialSetRef',
          issues: [{ path: 'officialSetRef', code: 'custom', message: 'not together with testSetRef' }],
        },
      },
    );
  const declared = options.declared ?? {};
  const ecfTypes = declared.ecfTypes === undefined ? undefined : ecfTypesOf(declared.ecfTypes);
  if (options.testSetRef !== undefined) {
    const set = await findCertificationSet(database, { tenantId, setId: options.testSetRef });
    if (set === null || set.kind !== 'ecf')
      throw new AppError('NOT_FOUND', `No test set ${options.testSetRef} in this account.`, {
        details: { testSetRef: options.testSetRef },
      });
  }
  const open = await findOpenCertificationCase(database, tenantId);
  // A set retired since the case chose it is still that case's set; a new choice must be in the catalogue.
  if (
    options.officialSetRef !== undefined &&
    options.officialSetRef !== open?.officialSetRef &&
    (await findOfficialSet(database, options.officialSetRef)) === null
  ) {
    throw new AppError('NOT_FOUND', `No official set ${options.officialSetRef} in the catalogue.`, {
      details: { officialSetRef: options.officialSetRef },
    });
  }
  if (open !== null) {
    const same =
      (options.testSetRef ?? null) === open.testSetId &&
      (options.officialSetRef ?? null) === open.officialSetRef;
    const members = [
      ecfTypes !== undefined && ecfTypes.join(',') !== open.ecfTypes.join(',') ? 'ecfTypes' : null,
      declared.b2bSimulation !== undefined && declared.b2bSimulation !== open.b2bSimulation
        ? 'b2bSimulation'
        : null,
      declared.notes !== undefined && declared.notes !== open.notes ? 'notes' : null,
      declared.actorRef !== undefined && declared.actorRef !== open.actorRef ? 'actorRef' : null,
    ].filter((member): member is string => member !== null);
    if (same && members.length === 0) return { case: open, created: false };
    throw new AppError(
      'CERTIFICATION_CASE_ALREADY_OPEN',
      same
        ? `The account's open case declares other ${members.join(', ')}: a case's declarations are set when it is created.`
        : 'The account has an open certification case with another set: close it first (certification-cases/{caseId}/close).',
      {
        details: {
          caseId: open.id,
          testSetRef: open.testSetId,
          officialSetRef: open.officialSetRef,
          ...(same ? { members } : {}),
        },
      },
    );
  }
  return ensureOpenCertificationCase(database, {
    tenantId,
    testSetId: options.testSetRef ?? null,
    officialSetRef: options.officialSetRef ?? null,
    declared: {
      ...(ecfTypes === undefined ? {} : { ecfTypes }),
      b2bSimulation: declared.b2bSimulation ?? null,
      notes: declared.notes ?? null,
      actorRef: declared.actorRef ?? null,
    },
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
 * closing it (404 for a set not in the catalogue, a retired one included); the data tests restart
 * (their receipts replaced) and the case's runs send that set (its `testSetRef` becomes null).
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
  if ((await findOfficialSet(options.database, options.officialSetRef)) === null)
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
    // The case now runs the official set: an uploaded set it had is no longer its set.
    decide: (current) => ({
      step: current.step,
      state: current.state,
      officialSetRef: options.officialSetRef,
      testSetId: null,
    }),
  });
}
