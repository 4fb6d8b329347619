import { AppError } from '../shared/errors.ts';
import type { TSubmissionContext } from '../emission/index.ts';
import { findOpenCertificationCase, findStepCompletions, findTakenEncfs } from '../persistence/index.ts';
import { readCertificationSetRequest } from './certification-request.ts';
import { assertCertificationEnvironment } from './certification-guards.ts';
import { planCertificationRun, type TPlannedItem } from './plan-certification-run.ts';
import { resolveRunSet } from './resolve-run-set.ts';

export type TCertificationPrevalidation = {
  part: 'data' | 'simulation';
  source: 'workbook' | 'json' | 'taxauth_model' | 'stored' | 'official';
  issuerRnc: string;
  rows: { ecf: number; rfce: number };
  types: Record<string, number>;
  documents: Array<
    Pick<TPlannedItem, 'position' | 'sheetRow' | 'caseRef' | 'encf' | 'dependsOn' | 'warnings'> & {
      type: string;
    }
  >;
  /** eNCF of the set this account already sent in CerteCF: a run of this set would be refused (409). */
  alreadyUsedEncfs: string[];
};

/**
 * `POST /{environment}/certificacion/prevalidar`: reads the set and validates every row as the run
 * would (mapping, fiscal-core, the official XSD, each RFCE row against the summary of its E32),
 * stores and sends nothing. 409 `CERTIFICATION_OWN_SET_REQUIRED` for the tax authority's model
 * before the commercial approvals were accepted; 422 with every problem located.
 */
export async function prevalidateCertificationSet(
  options: TSubmissionContext & { body: unknown },
): Promise<TCertificationPrevalidation> {
  assertCertificationEnvironment(options.environment);
  const request = readCertificationSetRequest(options.body);
  const open = await findOpenCertificationCase(options.database, options.tenant.id);
  const completed = new Set(
    open === null ? [] : (await findStepCompletions(options.database, open.id)).map((row) => row.step),
  );
  const resolved = await resolveRunSet({ ...options, request, openCase: open, completed });
  const plan = await planCertificationRun({ ...options, workbook: resolved.workbook });
  const types: Record<string, number> = {};
  for (const item of plan.items) types[String(item.type)] = (types[String(item.type)] ?? 0) + 1;
  if (plan.items.length === 0)
    throw new AppError('CERTIFICATION_SET_INVALID', 'The set has no ECF rows to send.', {
      details: { errors: [] },
    });
  return {
    part: resolved.part,
    source: request.source.kind,
    issuerRnc: resolved.workbook.issuerRnc,
    rows: { ecf: resolved.workbook.ecf.length, rfce: resolved.workbook.rfce.length },
    types,
    documents: plan.items.map((item) => ({
      position: item.position,
      sheetRow: item.sheetRow,
      caseRef: item.caseRef,
      type: String(item.type),
      encf: item.encf,
      dependsOn: item.dependsOn,
      warnings: item.warnings,
    })),
    alreadyUsedEncfs: await findTakenEncfs(options.database, {
      tenantId: options.tenant.id,
      environment: 'CerteCF',
      encfs: plan.items.map((item) => item.encf),
    }),
  };
}
