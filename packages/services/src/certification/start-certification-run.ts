import { createHash } from 'node:crypto';
import type { TEnqueue } from '@ecf/db';
import type { TSubmissionContext } from '../emission/index.ts';
import {
  ensureOpenCertificationCase,
  findCertificationCase,
  findCertificationSet,
  findActiveCertificationRun,
  findCertificationItems,
  findCertificationRunByKey,
  findStepCompletions,
  findTakenEncfs,
  insertCertificationRun,
  isIdempotencyKeyTaken,
  readOfficialSetContent,
  storeCertificationSet,
  type TCertificationRunRow,
} from '../persistence/index.ts';
import { AppError } from '../shared/errors.ts';
import { readCertificationSetRequest } from './certification-request.ts';
import { assertCertificateActive, assertCertificationEnvironment, moveCase } from './certification-guards.ts';
import { runViewOf, type TCertificationRunView } from './certification-views.ts';
import { planCertificationRun } from './plan-certification-run.ts';
import { resolveRunSet } from './resolve-run-set.ts';

export type TStartCertificationRunResult = { run: TCertificationRunView; replayed: boolean };

/**
 * `POST /{environment}/certificacion`: reads and validates the set as `prevalidar` does, then stores
 * it, the run, its items and its first `certification.advance` job in one transaction (202). The
 * documents are issued by the job, through the same pipeline as every e-CF. Refused before anything
 * is created: 409 `CERTIFICATE_NOT_ACTIVE`, `CERTIFICATION_RUN_IN_PROGRESS`,
 * `CERTIFICATION_OWN_SET_REQUIRED`, `CERTIFICATION_SET_ALREADY_USED` (an eNCF of the set was sent
 * already: used up for good), `CERTIFICATION_APPROVED`; 422 with every problem of the set, and 422
 * `CERTIFICATION_OWN_SET_REQUIRED` for a Partner case without a test set whose body names none.
 * `idempotencyKey` (Partner runs): the same key and body replays the run, another body is 409
 * `IDEMPOTENCY_CONFLICT`.
 */
export async function startCertificationRun(
  options: TSubmissionContext & {
    body: unknown;
    enqueue: TEnqueue;
    correlationId?: string | undefined;
    idempotencyKey?: string | undefined;
    /** A Partner case's run: the case (it must be the account's open one) and its set when the body names none. */
    caseId?: string | undefined;
  },
): Promise<TStartCertificationRunResult> {
  const { database, tenant } = options;
  assertCertificationEnvironment(options.environment);
  const named =
    options.caseId === undefined
      ? null
      : await findCertificationCase(database, { tenantId: tenant.id, caseId: options.caseId });
  if (options.caseId !== undefined && (named === null || named.state === 'closed'))
    throw new AppError('NOT_FOUND', `No open certification case ${options.caseId} in this account.`);
  if (
    named !== null &&
    named.testSetId === null &&
    named.officialSetRef === null &&
    !namesASet(options.body)
  ) {
    // A well-formed request the case cannot serve: its data tests need the account's own set.
    throw new AppError(
      'CERTIFICATION_OWN_SET_REQUIRED',
      'This case has no test set: upload the workbook the tax authority issued for this account (certification-test-sets) and create the case with its testSetRef, or run the simulation with taxauthModel.',
      { status: 422, details: { caseId: named.id, testSetRef: null } },
    );
  }
  const request = readCertificationSetRequest(options.body, {
    storedSetId: named?.testSetId ?? null,
    officialSetRef: named?.officialSetRef ?? null,
  });
  if (options.idempotencyKey !== undefined) {
    const replay = await replayOf(options, options.idempotencyKey, request.fingerprint);
    if (replay !== null) return replay;
  }
  await assertCertificateActive(database, tenant.id);
  const { case: openCase } = await ensureOpenCertificationCase(database, { tenantId: tenant.id });
  if (openCase.state === 'approved') {
    throw new AppError(
      'CERTIFICATION_APPROVED',
      'The certification is approved: there is nothing left to run.',
      {
        details: { caseId: openCase.id, approvedAt: openCase.approvedAt?.toISOString() ?? null },
      },
    );
  }
  const active = await findActiveCertificationRun(database, openCase.id);
  if (active !== null) {
    throw new AppError(
      'CERTIFICATION_RUN_IN_PROGRESS',
      'A run of this certification is still in progress: wait for it, or restart its part.',
      { details: { runId: active.id, part: active.part, state: active.state } },
    );
  }
  const completed = new Set((await findStepCompletions(database, openCase.id)).map((row) => row.step));
  const resolved = await resolveRunSet({ ...options, request, openCase, completed });
  const plan = await planCertificationRun({ ...options, workbook: resolved.workbook });
  if (plan.items.length === 0)
    throw new AppError('CERTIFICATION_SET_INVALID', 'The set has no ECF rows to send.', {
      details: { errors: [] },
    });
  const used = await findTakenEncfs(database, {
    tenantId: tenant.id,
    environment: 'CerteCF',
    encfs: plan.items.map((item) => item.encf),
  });
  if (used.length > 0) {
    throw new AppError(
      'CERTIFICATION_SET_ALREADY_USED',
      `${used.length} eNCF of this set were already sent by this account in CerteCF; a sent eNCF is used up for good: ask the tax authority for a new set.`,
      { details: { encfs: used } },
    );
  }
  const now = options.now;
  const source = request.source;
  // An official set is kept for the account as the workbook it is, with its rows for this RNC.
  const official = source.kind === 'official' ? await readOfficialSetContent(database, source.ref) : null;
  const set =
    source.kind === 'taxauth_model'
      ? null
      : source.kind === 'stored'
        ? await findCertificationSet(database, { tenantId: tenant.id, setId: source.setId })
        : await storeCertificationSet(database, {
            tenantId: tenant.id,
            kind: 'ecf',
            source: source.kind === 'official' ? 'workbook' : source.kind,
            rnc: resolved.workbook.issuerRnc,
            sha256:
              source.kind === 'official'
                ? createHash('sha256')
                    .update(official ?? '')
                    .digest('hex')
                : source.sha256,
            content:
              source.kind === 'official'
                ? (official ?? Buffer.alloc(0))
                : source.kind === 'workbook'
                  ? source.content
                  : Buffer.from(JSON.stringify({ ecf: source.ecf, rfce: source.rfce })),
            rows: { ecf: resolved.workbook.ecf, rfce: resolved.workbook.rfce },
            rowCount: resolved.workbook.ecf.length + resolved.workbook.rfce.length,
            now,
          });
  let run: TCertificationRunRow;
  try {
    run = await insertCertificationRun(database, {
      tenantId: tenant.id,
      caseId: openCase.id,
      setId: set?.id ?? null,
      part: resolved.part,
      source:
        source.kind === 'stored'
          ? (set?.source ?? 'workbook')
          : source.kind === 'official'
            ? 'workbook'
            : source.kind,
      idempotencyKey: options.idempotencyKey ?? null,
      requestFingerprint: options.idempotencyKey === undefined ? null : request.fingerprint,
      correlationId: options.correlationId ?? null,
      items: plan.items.map((item) => ({
        position: item.position,
        sheetRow: item.sheetRow,
        caseRef: item.caseRef,
        type: item.type,
        encf: item.encf,
        dependsOn: item.dependsOn,
        document: item.document,
        rfce: item.rfce,
      })),
      now,
      enqueue: options.enqueue,
    });
  } catch (error) {
    // Two requests with one Idempotency-Key racing: the second finds the first's run.
    if (options.idempotencyKey !== undefined && isIdempotencyKeyTaken(error)) {
      const replay = await replayOf(options, options.idempotencyKey, request.fingerprint);
      if (replay !== null) return replay;
    }
    throw error;
  }
  // A set exists only once the tax authority registered the application: step 1 is done.
  await moveCase({
    database,
    caseId: openCase.id,
    now,
    complete: [{ step: 'registered', source: 'set', reference: set?.id ?? run.id }],
    resume: true,
    // The set becomes the case's; an official set stays the case's as its officialSetRef.
    ...(resolved.part === 'data' && set !== null && source.kind !== 'official' ? { testSetId: set.id } : {}),
  });
  return { run: runViewOf(run, await findCertificationItems(database, run.id)), replayed: false };
}

/** Whether a request body names a set of its own (a workbook, JSON rows or the tax authority model). */
function namesASet(body: unknown): boolean {
  if (typeof body !== 'object' || body === null) return false;
  const record = body as Record<string, unknown>;
  return (
    record['workbookBase64'] !== undefined || record['set'] !== undefined || record['taxauthModel'] === true
  );
}

async function replayOf(
  options: TSubmissionContext,
  idempotencyKey: string,
  fingerprint: string,
): Promise<TStartCertificationRunResult | null> {
  const existing = await findCertificationRunByKey(options.database, {
    tenantId: options.tenant.id,
    idempotencyKey,
  });
  if (existing === null) return null;
  if (existing.requestFingerprint !== fingerprint) {
    throw new AppError('IDEMPOTENCY_CONFLICT', 'This Idempotency-Key was used with another request.', {
      details: { runId: existing.id },
    });
  }
  return {
    run: runViewOf(existing, await findCertificationItems(options.database, existing.id)),
    replayed: true,
  };
}
