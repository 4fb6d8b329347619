import type { CertificationItemState, TDatabase, TEnqueue } from '@ecf/db';
import type { TXsdValidators } from '@ecf/fiscal-core';
import { issueDocument } from '../emission/index.ts';
import {
  changeCertificationItems,
  claimChainStep,
  continueChain,
  findCertificationItems,
  findCertificationRun,
  findPendingItemDocuments,
  findTenant,
  finishCertificationRun,
  inCertificationTransaction,
  type TCertificationItemView,
} from '../persistence/index.ts';
import { AppError } from '../shared/errors.ts';
import { moveCase } from './certification-guards.ts';

/** How long a step may hold the chain before the next generation's safety job takes over. */
export const ADVANCE_LEASE_SECONDS = 15;

/** The wait before the next look at a run: short while it moves, up to 30 s while it waits. */
export function nextAdvanceAfterSeconds(sinceProgressMs: number): number {
  if (sinceProgressMs < 60_000) return 2;
  if (sinceProgressMs < 5 * 60_000) return 10;
  return 30;
}

export type TAdvanceReport = {
  runId: string;
  outcome: 'stale' | 'waiting' | 'succeeded' | 'failed' | 'ended';
  issued: number;
  settled: number;
};

type TItemChange = {
  position: number;
  from: CertificationItemState;
  to: CertificationItemState;
  documentId?: string;
  detail?: unknown;
};

/**
 * One step of a run (`certification.advance`): claims the run's generation (a stale or duplicate
 * job stops here), reads the answers of its issued documents, ends the run when one was rejected
 * (`failed`: the case fails, the data tests must restart) or all were accepted (`succeeded`: the
 * part's step completes) — the run's end and its case's move in one transaction — and otherwise issues the documents whose turn came — an original at
 * once, a note once its original was accepted — each through `issueDocument`: the item's stored
 * tree is the submission, so issuing again after a crash is a replay of the same document, never a
 * second one. Then hands the chain on.
 */
export async function advanceCertificationRun(options: {
  database: TDatabase;
  runId: string;
  generation: number;
  enqueue: TEnqueue;
  xsd: TXsdValidators;
  now: () => Date;
}): Promise<TAdvanceReport> {
  const { database, runId } = options;
  const claim = await claimChainStep(database, {
    table: 'certification_runs',
    id: runId,
    generation: options.generation,
    leaseSeconds: ADVANCE_LEASE_SECONDS,
    now: options.now(),
    enqueue: options.enqueue,
  });
  if (claim === null) return { runId, outcome: 'stale', issued: 0, settled: 0 };
  const run = await findCertificationRun(database, { runId, tenantId: null });
  if (run === null || (run.state !== 'running' && run.state !== 'queued'))
    return { runId, outcome: 'ended', issued: 0, settled: 0 };

  const items = await findCertificationItems(database, runId);
  const settled = settleIssued(items);
  await changeCertificationItems(database, { runId, changes: settled, now: options.now() });
  const stateOf = new Map(items.map((item) => [item.position, item.state]));
  for (const change of settled) stateOf.set(change.position, change.to);

  const failedPosition = items.find((item) => {
    const state = stateOf.get(item.position);
    return state === 'rejected' || state === 'failed';
  });
  if (failedPosition !== undefined)
    return await endRun(
      options,
      run.caseId,
      run.part,
      'failed',
      failedPosition,
      items.length,
      settled.length,
    );
  if (items.every((item) => stateOf.get(item.position) === 'accepted'))
    return await endRun(options, run.caseId, run.part, 'succeeded', undefined, items.length, settled.length);

  // Issue what may go now: pending items whose original (if any) is accepted.
  const acceptedEncfs = new Set(
    items.filter((item) => stateOf.get(item.position) === 'accepted').map((item) => item.encf),
  );
  const ready = items.filter(
    (item) =>
      stateOf.get(item.position) === 'pending' &&
      (item.dependsOn === null || acceptedEncfs.has(item.dependsOn)),
  );
  let issued = 0;
  if (ready.length > 0) {
    const tenant = await findTenant(database, { id: run.tenantId });
    if (tenant === null) throw new Error(`run ${runId}: tenant ${run.tenantId} not found`);
    const documents = await findPendingItemDocuments(database, runId);
    const changes: TItemChange[] = [];
    for (const item of ready) {
      const tree = documents.get(item.position);
      if (tree === undefined) continue;
      const rawBody = JSON.stringify(tree);
      try {
        const outcome = await issueDocument({
          database,
          tenant,
          environment: 'CerteCF',
          xsd: options.xsd,
          now: options.now(),
          rawBody,
          body: tree,
          enqueue: options.enqueue,
        });
        changes.push({
          position: item.position,
          from: 'pending',
          to: 'issued',
          documentId: outcome.document.id,
        });
        issued += 1;
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        changes.push({
          position: item.position,
          from: 'pending',
          to: 'failed',
          detail: {
            code: error.code,
            message: error.message,
            ...(Object.keys(error.details).length > 0 ? { details: error.details } : {}),
            ...('errors' in error.body ? { errors: error.body['errors'] } : {}),
          },
        });
      }
    }
    await changeCertificationItems(database, { runId, changes, now: options.now() });
  }
  const fresh = await findCertificationRun(database, { runId, tenantId: null });
  const sinceProgress = options.now().getTime() - (fresh?.progressedAt ?? run.progressedAt).getTime();
  await continueChain(database, {
    table: 'certification_runs',
    id: runId,
    generation: claim.generation,
    afterSeconds: issued > 0 ? 1 : nextAdvanceAfterSeconds(sinceProgress),
    now: options.now(),
    enqueue: options.enqueue,
  });
  return { runId, outcome: 'waiting', issued, settled: settled.length };
}

/** Issued items whose document the tax authority answered: accepted, rejected, or failed (annulled). */
function settleIssued(items: readonly TCertificationItemView[]): TItemChange[] {
  const changes: TItemChange[] = [];
  for (const item of items) {
    if (item.state !== 'issued' || item.documentStatus === null) continue;
    if (item.documentStatus === 'accepted' || item.documentStatus === 'accepted_conditional') {
      changes.push({ position: item.position, from: 'issued', to: 'accepted' });
    } else if (item.documentStatus === 'rejected') {
      changes.push({
        position: item.position,
        from: 'issued',
        to: 'rejected',
        detail: { code: 'TAXAUTH_REJECTED', messages: item.taxauthMessages ?? [] },
      });
    } else if (item.documentStatus === 'cancelled') {
      changes.push({
        position: item.position,
        from: 'issued',
        to: 'failed',
        detail: { code: 'DOCUMENT_CANCELLED', message: 'The document was cancelled by an annulment.' },
      });
    }
  }
  return changes;
}

async function endRun(
  options: { database: TDatabase; runId: string; now: () => Date },
  caseId: string,
  part: 'data' | 'simulation',
  state: 'succeeded' | 'failed',
  failed: TCertificationItemView | undefined,
  documents: number,
  settled: number,
): Promise<TAdvanceReport> {
  const { database, runId } = options;
  const now = options.now();
  let failure: unknown = null;
  if (failed !== undefined) {
    const [item] = (await findCertificationItems(database, runId)).filter(
      (row) => row.position === failed.position,
    );
    failure = {
      code: item?.state === 'rejected' ? 'TAXAUTH_REJECTED' : 'CERTIFICATION_DOCUMENT_FAILED',
      message:
        item?.state === 'rejected'
          ? `The tax authority rejected ${failed.encf} (row ${failed.sheetRow ?? '?'}): restart the data tests with a new set.`
          : `${failed.encf} (row ${failed.sheetRow ?? '?'}) could not be issued.`,
      encf: failed.encf,
      position: failed.position,
      row: failed.sheetRow,
      detail: item?.detail ?? null,
    };
  }
  // One transaction: nobody ever sees the run over and its case not yet moved (a failed run with
  // its case still in progress, a passed one with its step not done), and a crash between the two
  // cannot leave the case behind for good.
  await inCertificationTransaction(database, async (sql) => {
    if (!(await finishCertificationRun(database, { runId, state, failure, now, sql }))) return;
    if (state === 'succeeded') {
      await moveCase({
        database,
        caseId,
        now,
        sql,
        complete: [
          { step: part === 'data' ? 'data_tests_ecf' : 'simulation_ecf', source: 'run', reference: runId },
        ],
      });
    } else {
      await moveCase({ database, caseId, now, sql, fail: true });
    }
  });
  return { runId, outcome: state, issued: 0, settled };
}
