/**
 * Certification runs through the real worker and the simulator: the tax authority's workbook sent
 * row by row (notes after their originals), accepted; a rejection fails the run and its case and
 * stops it; a restart replaces the part's receipts.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { sqlPoolOf } from '@ecf/db';
import {
  getCertificationCase,
  getCertificationRun,
  restartCertificationPart,
  startCertificationRun,
  type TCertificationRunView,
} from '@ecf/services';
import { loadXsdValidators } from '@ecf/config';
import type { TXsdValidators } from '@ecf/fiscal-core';
import { MODEL_WORKBOOK, modelSetFor } from '../test/certification-workbook.ts';
import {
  openPipelineHarness,
  TEST_XSD_DIRECTORY,
  waitFor,
  type TPipelineHarness,
} from '../test/pipeline-harness.ts';

const WORKBOOK = MODEL_WORKBOOK;
const RNC = '132641566';

let harness: TPipelineHarness;
let xsd: TXsdValidators;

before(async () => {
  harness = await openPipelineHarness({ processingDelayMs: 0, xsd: true });
  xsd = await loadXsdValidators(TEST_XSD_DIRECTORY);
});
after(async () => {
  xsd.dispose();
  await harness.close();
});

async function runOf(tenantId: string, runId: string): Promise<TCertificationRunView> {
  return getCertificationRun({ database: harness.database, tenantId, environment: 'CerteCF', runId });
}

const isOver = (run: TCertificationRunView) => ['succeeded', 'failed', 'stopped'].includes(run.state);

test('a data run: the 25 rows issued in send order, every note after its original, all accepted; the data step completes', async () => {
  const tenant = await harness.tenantWithCertificate([], RNC);
  const started = await startCertificationRun({
    database: harness.database,
    tenant,
    environment: 'CerteCF',
    xsd,
    now: new Date(),
    body: { workbookBase64: WORKBOOK.toString('base64') },
    enqueue: harness.enqueue,
  });
  assert.equal(started.run.state, 'queued');
  assert.equal(started.run.items.length, 25);
  assert.equal(started.run.part, 'data');

  const run = await waitFor(() => runOf(tenant.id, started.run.runId), isOver, 120_000);
  assert.equal(run.state, 'succeeded', JSON.stringify(run.failure));
  assert.ok(run.items.every((item) => item.state === 'accepted'));

  // Each note was stored (and so sent) only after the document it references was accepted.
  const pool = sqlPoolOf(harness.database);
  const firstEventAt = async (documentId: string | null, where: string): Promise<number> => {
    const { rows } = await pool.query<{ at: Date | null }>(
      `SELECT min(created_at) AS at FROM document_events WHERE document_id = $1 AND ${where}`,
      [documentId],
    );
    assert.ok(rows[0]?.at, `${documentId}: ${where}`);
    return rows[0].at.getTime();
  };
  const notes = run.items.filter((item) => item.dependsOn !== null);
  assert.ok(notes.length >= 3, 'the set has notes that reference documents of the set');
  for (const note of notes) {
    const original = run.items.find((item) => item.encf === note.dependsOn);
    assert.ok(original, `${note.encf} references ${note.dependsOn}`);
    assert.ok(original.position < note.position);
    const acceptedAt = await firstEventAt(
      original.documentId,
      `to_status IN ('accepted', 'accepted_conditional')`,
    );
    const submittedAt = await firstEventAt(note.documentId, `type = 'submitted'`);
    assert.ok(acceptedAt <= submittedAt, `${note.encf} stored after ${original.encf} was accepted`);
  }
  // The four E32 below RD$250,000 went as their RFCE summaries (no TrackID), the others in full.
  assert.equal(run.items.filter((item) => item.type === '32' && item.trackId === null).length, 4);
  assert.equal(run.items.filter((item) => item.trackId !== null).length, 21);

  const view = await getCertificationCase({
    database: harness.database,
    tenant: { id: tenant.id, productionState: 'not_requested' },
    environment: 'CerteCF',
  });
  assert.equal(view.state, 'in_progress');
  assert.equal(view.step, 'data_tests_commercial_approval');
  assert.deepEqual(
    view.steps.filter((step) => step.state === 'done').map((step) => step.step),
    ['registered', 'data_tests_ecf'],
  );

  // The same set again: its eNCFs are used up for good.
  await assert.rejects(
    startCertificationRun({
      database: harness.database,
      tenant,
      environment: 'CerteCF',
      xsd,
      now: new Date(),
      body: { workbookBase64: WORKBOOK.toString('base64'), part: 'data' },
      enqueue: harness.enqueue,
    }),
    (error: { code?: string; details?: { encfs?: string[] } }) =>
      error.code === 'CERTIFICATION_SET_ALREADY_USED' && error.details?.encfs?.length === 25,
  );
});

test('a rejection fails the run and the case; nothing more is issued; a restart replaces the receipts and opens the case again', async () => {
  const tenant = await harness.tenantWithCertificate();
  const set = await modelSetFor(tenant.rnc);
  const fault = await fetch(`${harness.simulator.baseUrl}/_sim/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ environment: 'certecf', service: 'recepcion', fault: 'reject', count: 1 }),
  });
  assert.equal(fault.status, 201);
  const started = await startCertificationRun({
    database: harness.database,
    tenant,
    environment: 'CerteCF',
    xsd,
    now: new Date(),
    body: { set },
    enqueue: harness.enqueue,
  });
  const run = await waitFor(() => runOf(tenant.id, started.run.runId), isOver, 120_000);
  assert.equal(run.state, 'failed');
  const rejected = run.items.filter((item) => item.state === 'rejected');
  assert.equal(rejected.length, 1);
  const failure = run.failure as { code: string; encf: string };
  assert.equal(failure.code, 'TAXAUTH_REJECTED');
  assert.equal(failure.encf, rejected[0]?.encf);
  assert.ok(
    Array.isArray(rejected[0]?.taxauthMessages) && (rejected[0]?.taxauthMessages as unknown[]).length > 0,
  );
  // Nothing waits to be issued, and a note of the rejected original was never issued.
  assert.equal(run.items.filter((item) => item.state === 'pending').length, 0);
  for (const note of run.items.filter((item) => item.dependsOn === rejected[0]?.encf)) {
    assert.equal(note.state, 'stopped');
    assert.equal(note.documentId, null);
  }
  const failedCase = await getCertificationCase({
    database: harness.database,
    tenant,
    environment: 'CerteCF',
  });
  assert.equal(failedCase.state, 'failed');
  assert.equal(failedCase.step, 'data_tests_ecf');

  const restarted = await restartCertificationPart({
    database: harness.database,
    tenantId: tenant.id,
    environment: 'CerteCF',
    body: { part: 'data' },
    now: new Date(),
  });
  assert.equal(restarted.stoppedRunId, null, 'the failed run had already ended');
  assert.equal(restarted.replacedDocuments, run.items.filter((item) => item.documentId !== null).length);
  assert.equal(restarted.state, 'in_progress');
  const { rows } = await sqlPoolOf(harness.database).query<{ replaced: number; kept: number }>(
    `SELECT count(*) FILTER (WHERE replaced_at IS NOT NULL)::int AS replaced, count(*)::int AS kept
       FROM documents WHERE tenant_id = $1 AND environment = 'CerteCF'`,
    [tenant.id],
  );
  assert.equal(rows[0]?.replaced, restarted.replacedDocuments, 'replaced, not deleted');
  assert.equal(rows[0]?.kept, restarted.replacedDocuments);
  const replacedRun = await runOf(tenant.id, run.runId);
  assert.ok(replacedRun.replacedAt !== null);
});

test('a restart stops a running run: its pending rows are never issued', async () => {
  const tenant = await harness.tenantWithCertificate();
  const set = await modelSetFor(tenant.rnc);
  // The simulator holds every answer: the originals stay unanswered, so the notes wait.
  const fault = await fetch(`${harness.simulator.baseUrl}/_sim/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ environment: 'certecf', service: 'consultaresultado', fault: 'http_503' }),
  });
  assert.equal(fault.status, 201);
  const { id: faultId } = (await fault.json()) as { id: string };
  try {
    const started = await startCertificationRun({
      database: harness.database,
      tenant,
      environment: 'CerteCF',
      xsd,
      now: new Date(),
      body: { set },
      enqueue: harness.enqueue,
    });
    await waitFor(
      () => runOf(tenant.id, started.run.runId),
      (run) => run.items.filter((item) => item.state === 'issued').length >= 20,
      60_000,
    );
    const restarted = await restartCertificationPart({
      database: harness.database,
      tenantId: tenant.id,
      environment: 'CerteCF',
      body: { part: 'data' },
      now: new Date(),
    });
    assert.equal(restarted.stoppedRunId, started.run.runId);
    const stopped = await runOf(tenant.id, started.run.runId);
    assert.equal(stopped.state, 'stopped');
    const pendingBefore = stopped.items
      .filter((item) => item.state === 'stopped')
      .map((item) => item.position);
    assert.ok(pendingBefore.length > 0, 'the notes were still waiting');
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const later = await runOf(tenant.id, started.run.runId);
    for (const position of pendingBefore)
      assert.equal(later.items.find((item) => item.position === position)?.documentId, null);
  } finally {
    await fetch(`${harness.simulator.baseUrl}/_sim/faults/${faultId}`, { method: 'DELETE' });
  }
});
