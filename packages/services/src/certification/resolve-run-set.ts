import type { CertificationStep, TDatabase } from '@ecf/db';
import type { TCertificationWorkbook, TWorkbookRow } from '@ecf/certification-sets';
import {
  findCertificationSet,
  findHighestSequencePerType,
  type TCertificationCaseRow,
} from '../persistence/index.ts';
import { AppError } from '../shared/errors.ts';
import type { TReadSetRequest } from './certification-request.ts';
import { officialSetFor } from './official-sets.ts';
import { modelSimulationSet, readPackagedModelSet, readUploadedSet } from './plan-certification-run.ts';

/**
 * The part a run belongs to and the set it sends: the part asked for, or the one the case is at
 * (the simulation once the commercial approvals were accepted); an uploaded set read for the
 * account's RNC, an official set's rows for the account's RNC (a Partner case's `officialSetRef`),
 * or the tax authority's model renumbered for the simulation. 409
 * `CERTIFICATION_OWN_SET_REQUIRED` for the model before the approvals were accepted or for the data
 * tests; 409 `CERTIFICATION_SIMULATION_NOT_READY` for a simulation before them.
 */
export async function resolveRunSet(options: {
  database: TDatabase;
  tenant: { id: string; rnc: string };
  request: TReadSetRequest;
  openCase: TCertificationCaseRow | null;
  completed: ReadonlySet<CertificationStep>;
  now: Date;
}): Promise<{ part: 'data' | 'simulation'; workbook: TCertificationWorkbook & { kind: 'ecf_set' } }> {
  const { request, completed } = options;
  const approvalsAccepted = completed.has('data_tests_commercial_approval');
  const part = request.part ?? (approvalsAccepted ? 'simulation' : 'data');
  if (request.source.kind === 'taxauth_model') {
    if (part === 'data' || !approvalsAccepted) {
      throw new AppError(
        'CERTIFICATION_OWN_SET_REQUIRED',
        'The tax authority model is for the simulation, after the tax authority accepted the commercial approvals; the data tests send the workbook it issued for this account.',
        { details: { part, step: options.openCase?.step ?? 'registered' } },
      );
    }
    const model = await modelSetOf(options);
    return {
      part,
      workbook: modelSimulationSet({
        model,
        rnc: options.tenant.rnc,
        highestSequence: await findHighestSequencePerType(options.database, {
          tenantId: options.tenant.id,
          environment: 'CerteCF',
        }),
        now: options.now,
      }),
    };
  }
  if (part === 'simulation' && !approvalsAccepted) {
    throw new AppError(
      'CERTIFICATION_SIMULATION_NOT_READY',
      'The simulation comes after the data tests and the commercial approval tests were accepted.',
      { details: { part, step: options.openCase?.step ?? 'registered' } },
    );
  }
  if (request.source.kind === 'official') {
    return {
      part,
      workbook: await officialSetFor({
        database: options.database,
        ref: request.source.ref,
        rnc: options.tenant.rnc,
      }),
    };
  }
  if (request.source.kind === 'stored') {
    const set = await findCertificationSet(options.database, {
      tenantId: options.tenant.id,
      setId: request.source.setId,
    });
    if (set === null || set.kind !== 'ecf' || !isStoredEcfRows(set.rows)) {
      throw new AppError('NOT_FOUND', `No test set ${request.source.setId} in this account.`, {
        details: { testSetRef: request.source.setId },
      });
    }
    return {
      part,
      workbook: { kind: 'ecf_set', issuerRnc: set.rnc, ecf: set.rows.ecf, rfce: set.rows.rfce },
    };
  }
  return {
    part,
    workbook: await readUploadedSet({ source: request.source, expectedRnc: options.tenant.rnc }),
  };
}

/**
 * The model of the simulation: the data set of the case (its uploaded set, else its official set
 * for this RNC), else the packaged model for this RNC.
 */
async function modelSetOf(options: {
  database: TDatabase;
  tenant: { id: string; rnc: string };
  openCase: TCertificationCaseRow | null;
}): Promise<TCertificationWorkbook & { kind: 'ecf_set' }> {
  const setId = options.openCase?.testSetId ?? null;
  if (setId !== null) {
    const set = await findCertificationSet(options.database, { tenantId: options.tenant.id, setId });
    if (set !== null && isStoredEcfRows(set.rows))
      return { kind: 'ecf_set', issuerRnc: set.rnc, ecf: set.rows.ecf, rfce: set.rows.rfce };
  }
  const officialRef = options.openCase?.officialSetRef ?? null;
  if (setId === null && officialRef !== null)
    return officialSetFor({ database: options.database, ref: officialRef, rnc: options.tenant.rnc });
  const packaged = await readPackagedModelSet();
  return { ...packaged, issuerRnc: options.tenant.rnc };
}

/** The rows of a stored data set (`storeCertificationSet` keeps `{ ecf, rfce }`). */
function isStoredEcfRows(rows: unknown): rows is { ecf: TWorkbookRow[]; rfce: TWorkbookRow[] } {
  return (
    typeof rows === 'object' &&
    rows !== null &&
    Array.isArray((rows as { ecf?: unknown }).ecf) &&
    Array.isArray((rows as { rfce?: unknown }).rfce)
  );
}
