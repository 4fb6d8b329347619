/**
 * Certification runs through the real worker and the simulator: the tax authority's workbook sent
 * row by row (notes after their originals), accepted; the run's files (consumer invoices and their
 * summaries, one by one and zipped; the printed PDFs read back); a rejection fails the run and its
 * case and stops it; a restart replaces the part's receipts and takes them out of the issued list;
 * stuck receipts resent; a consumer summary resent after its answer was lost meets the tax
 * authority's duplicate answer and is still accepted; the production activation asked for and granted.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { unzipSync } from 'fflate';
import { sqlPoolOf } from '@ecf/db';
import {
  CERTIFICATION_STEPS,
  findIssuedDocuments,
  getCertificationCase,
  getCertificationEvidence,
  getCertificationRun,
  getCertificationRunFile,
  requestProductionActivation,
  resendCertificationDocument,
  restartCertificationPart,
  startCertificationRun,
  type TCertificationRunView,
  type TEvidenceSelection,
} from '@ecf/services';
import { loadXsdValidators } from '@ecf/config';
import { verifyXmlSignature, type TXsdValidators } from '@ecf/fiscal-core';
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
  // An attempt whose answer was lost is asked about 1 s after it, not 45 s (the resent summary below).
  harness = await openPipelineHarness({
    processingDelayMs: 0,
    xsd: true,
    worker: { transmitInFlightMs: 1000 },
  });
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

/** An error of a use-case with this code (and these details). */
const codeOf =
  (code: string, details: Record<string, unknown> = {}) =>
  (error: { code?: string; details?: Record<string, unknown> }) =>
    error.code === code && Object.entries(details).every(([key, value]) => error.details?.[key] === value);

/** The files of one of a run's ZIPs, by name (the manifest aside). */
async function zipOf(tenantId: string, runId: string, selection: TEvidenceSelection) {
  const evidence = await getCertificationEvidence({
    database: harness.database,
    tenantId,
    environment: 'CerteCF',
    runId,
    now: () => new Date(),
    keyring: harness.keyring,
    selection,
  });
  const { 'manifest.json': _manifest, ...files } = unzipSync(Buffer.from(evidence.content, 'base64'));
  return files;
}

/** The text of each PDF as `pdftotext -layout` reads it (poppler-utils). */
async function pdfTexts(files: Record<string, Uint8Array>): Promise<Map<string, string>> {
  const directory = await mkdtemp(join(tmpdir(), 'certification-pdfs-'));
  try {
    const texts = new Map<string, string>();
    for (const [name, content] of Object.entries(files)) {
      const file = join(directory, 'receipt.pdf');
      await writeFile(file, content);
      texts.set(
        name,
        await new Promise<string>((resolve, reject) =>
          execFile('pdftotext', ['-layout', file, '-'], (error, stdout) =>
            error ? reject(new Error(`pdftotext ${name}: ${error.message}`)) : resolve(stdout),
          ),
        ),
      );
    }
    return texts;
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

/** The account's CerteCF issued list (one page is all of it here). */
async function issuedList(tenantId: string) {
  const page = await findIssuedDocuments({
    database: harness.database,
    tenantId,
    environment: 'CerteCF',
    filters: {},
    limit: 100,
    cursorSecret: 'certification-run-test',
  });
  return page.items;
}

async function injectFault(body: Record<string, unknown>): Promise<string> {
  const response = await fetch(`${harness.simulator.baseUrl}/_sim/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  assert.equal(response.status, 201);
  return ((await response.json()) as { id: string }).id;
}

/** A run of `body` (a set or a workbook) for `tenant` in CerteCF, started now through the use-case. */
function startRun(
  tenant: Parameters<typeof startCertificationRun>[0]['tenant'],
  body: Parameters<typeof startCertificationRun>[0]['body'],
) {
  return startCertificationRun({
    database: harness.database,
    tenant,
    environment: 'CerteCF',
    xsd,
    now: new Date(),
    body,
    enqueue: harness.enqueue,
  });
}

test('a data run: the 25 rows issued in send order, every note after its original, all accepted; the data step completes', async () => {
  const tenant = await harness.tenantWithCertificate([], RNC);
  const started = await startRun(tenant, { workbookBase64: WORKBOOK.toString('base64') });
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

  // The consumer invoices (the four E32 below RD$250,000) and their signed RFCE summaries: zipped,
  // and one by one with the same bytes, named RNC + eNCF.
  const consumer = run.items.filter((item) => item.type === '32' && item.trackId === null);
  const invoices = await zipOf(tenant.id, run.runId, 'consumer_invoices');
  const summaries = await zipOf(tenant.id, run.runId, 'consumer_summaries');
  const namesOf = (folder: string) => consumer.map((item) => `${folder}${RNC}${item.encf}.xml`).sort();
  assert.deepEqual(Object.keys(invoices).sort(), namesOf('xml/'));
  assert.deepEqual(Object.keys(summaries).sort(), namesOf('rfce/'));
  for (const item of consumer) {
    for (const [selection, zip, folder, root] of [
      ['consumer_invoices', invoices, 'xml/', 'ECF'],
      ['consumer_summaries', summaries, 'rfce/', 'RFCE'],
    ] as const) {
      const file = await getCertificationRunFile({
        database: harness.database,
        tenantId: tenant.id,
        environment: 'CerteCF',
        runId: run.runId,
        selection,
        encf: item.encf,
        keyring: harness.keyring,
      });
      assert.equal(file.fileName, `${RNC}${item.encf}.xml`);
      assert.deepEqual(Buffer.from(file.content), Buffer.from(zip[`${folder}${file.fileName}`] ?? []));
      const xml = Buffer.from(file.content).toString('utf8');
      assert.match(xml, new RegExp(`<${root}[ >]`));
      assert.match(xml, new RegExp(`<eNCF>${item.encf}</eNCF>`));
      assert.ok(verifyXmlSignature(xml).valid, `${selection} ${item.encf}: signature`);
    }
  }
  // An E31 of the run is no consumer invoice; an eNCF the run does not have is not found.
  const e31 = run.items.find((item) => item.type === '31');
  assert.ok(e31);
  for (const encf of [e31.encf, 'E329999999999'])
    await assert.rejects(
      getCertificationRunFile({
        database: harness.database,
        tenantId: tenant.id,
        environment: 'CerteCF',
        runId: run.runId,
        selection: 'consumer_invoices',
        encf,
        keyring: harness.keyring,
      }),
      codeOf('NOT_FOUND'),
    );

  // The printed PDFs: one per receipt, each PDF read back names its own eNCF.
  const texts = await pdfTexts(await zipOf(tenant.id, run.runId, 'printed_pdfs'));
  assert.equal(texts.size, 25);
  for (const item of run.items) {
    const named = [...texts].filter(([, text]) => text.includes(item.encf));
    assert.ok(named.length >= 1, `a PDF shows ${item.encf}`);
    const [name, text] = named.find(([file]) => file.includes(item.encf)) ?? named[0] ?? ['', ''];
    assert.match(name, /^pdf\/.+\.pdf$/);
    assert.match(text, /Electr[oó]nic[ao]/, `${name}: the title of an electronic receipt`);
    assert.ok(text.includes(RNC), `${name}: the issuer's RNC`);
  }

  // An accepted receipt is resolved: nothing to resend.
  await assert.rejects(
    resendCertificationDocument({
      database: harness.database,
      tenantId: tenant.id,
      environment: 'CerteCF',
      documentId: run.items[0]?.documentId ?? '',
      enqueue: harness.enqueue,
      now: new Date(),
    }),
    codeOf('CERTIFICATION_DOCUMENT_NOT_RESENDABLE', { status: 'accepted' }),
  );

  // The same set again: its eNCFs are used up for good.
  await assert.rejects(
    startRun(tenant, { workbookBase64: WORKBOOK.toString('base64'), part: 'data' }),
    (error: { code?: string; details?: { encfs?: string[] } }) =>
      error.code === 'CERTIFICATION_SET_ALREADY_USED' && error.details?.encfs?.length === 25,
  );
});

test('a rejection fails the run and the case; nothing more is issued; a restart replaces the receipts and opens the case again', async () => {
  const tenant = await harness.tenantWithCertificate();
  const set = await modelSetFor(tenant.rnc);
  await injectFault({ environment: 'certecf', service: 'recepcion', fault: 'reject', count: 1 });
  const started = await startRun(tenant, { set });
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

  const issuedBefore = await issuedList(tenant.id);
  assert.equal(issuedBefore.length, run.items.filter((item) => item.documentId !== null).length);
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
  // The replaced receipts are kept but out of the issued list.
  assert.equal((await issuedList(tenant.id)).length, 0);
});

test('a restart stops a running run: its pending rows are never issued', async () => {
  const tenant = await harness.tenantWithCertificate();
  const set = await modelSetFor(tenant.rnc);
  // The simulator holds every answer: the originals stay unanswered, so the notes wait.
  const faultId = await injectFault({
    environment: 'certecf',
    service: 'consultaresultado',
    fault: 'http_503',
  });
  try {
    const started = await startRun(tenant, { set });
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

test('stuck receipts resent: those waiting with a TrackID are asked now, those whose send failed go back to contingency and are accepted; the run then passes', async () => {
  const tenant = await harness.tenantWithCertificate();
  const set = await modelSetFor(tenant.rnc);
  // The account's first authentication is refused (not delegated): the sends waiting on it fail for good.
  await injectFault({ environment: 'certecf', service: 'autenticacion', fault: 'not_delegated', count: 1 });
  // No results while the run goes: the receipts with a TrackID wait for their answer.
  const held = await injectFault({ environment: 'certecf', service: 'consultaresultado', fault: 'http_503' });
  const started = await startRun(tenant, { set });
  const stuck = await waitFor(
    () => runOf(tenant.id, started.run.runId),
    (run) =>
      run.items.some((item) => item.documentStatus === 'transmission_failed') &&
      run.items.some((item) => item.documentStatus === 'sent' && item.trackId !== null),
    60_000,
  );
  const failed = stuck.items.find((item) => item.documentStatus === 'transmission_failed');
  assert.ok(failed?.documentId, JSON.stringify(stuck.items.map((item) => item.documentStatus)));
  assert.equal(stuck.state, 'running', 'a receipt without an answer keeps the run going');
  await fetch(`${harness.simulator.baseUrl}/_sim/faults/${held}`, { method: 'DELETE' });

  const resend = (documentId: string) =>
    resendCertificationDocument({
      database: harness.database,
      tenantId: tenant.id,
      environment: 'CerteCF',
      documentId,
      enqueue: harness.enqueue,
      now: new Date(),
    });
  // Every receipt still waiting with its TrackID is asked for its result now (one answered in the
  // meantime is resolved: not resendable).
  let queried = 0;
  for (const item of (await runOf(tenant.id, started.run.runId)).items) {
    if (item.documentStatus !== 'sent' || item.trackId === null || item.documentId === null) continue;
    try {
      const answer = await resend(item.documentId);
      assert.equal(answer.action, 'status_queried');
      queried += 1;
    } catch (error) {
      if ((error as { code?: string }).code !== 'CERTIFICATION_DOCUMENT_NOT_RESENDABLE') throw error;
    }
  }
  assert.ok(queried > 0, 'a receipt with a TrackID was asked for its result');
  // Each send the refused authentication failed (every send waiting on it) goes back to contingency
  // and is sent again; the run then passes.
  const resentIds = new Set<string>();
  const deadline = Date.now() + 120_000;
  let run = await runOf(tenant.id, started.run.runId);
  while (!isOver(run) && Date.now() < deadline) {
    for (const item of run.items) {
      if (item.documentStatus !== 'transmission_failed' || item.documentId === null) continue;
      if (resentIds.has(item.documentId)) continue;
      const resent = await resend(item.documentId);
      assert.deepEqual(
        { action: resent.action, status: resent.status, encf: resent.encf },
        { action: 'resent', status: 'contingency', encf: item.encf },
      );
      resentIds.add(item.documentId);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
    run = await runOf(tenant.id, started.run.runId);
  }
  assert.equal(
    run.state,
    'succeeded',
    JSON.stringify([run.failure, run.items.filter((item) => item.state !== 'accepted')]),
  );
  assert.ok(resentIds.has(failed.documentId));
  const { rows } = await sqlPoolOf(harness.database).query<{ type: string; to: string | null }>(
    `SELECT type, to_status::text AS to FROM document_events WHERE document_id = $1 ORDER BY id`,
    [failed.documentId],
  );
  const trail = rows.map((row) => `${row.type}:${row.to ?? ''}`);
  const resentAt = trail.indexOf('certification_resend:contingency');
  assert.ok(resentAt > 0, trail.join(' '));
  assert.ok(
    trail.slice(resentAt).some((event) => event.endsWith(':accepted')),
    `accepted after the resend: ${trail.join(' ')}`,
  );
  await assert.rejects(
    resend(failed.documentId),
    codeOf('CERTIFICATION_DOCUMENT_NOT_RESENDABLE', { status: 'accepted' }),
  );
});

test("a consumer summary resent after its answer was lost: the tax authority's duplicate answer (its first copy accepted) does not fail the receipt; the run passes", async () => {
  const tenant = await harness.tenantWithCertificate();
  const set = await modelSetFor(tenant.rnc);
  // The first RFCE the tax authority receives is accepted, but its answer never comes back.
  await injectFault({ environment: 'certecf', service: 'recepcionfc', fault: 'lose_answer', count: 1 });
  const started = await startRun(tenant, { set });
  const waiting = await waitFor(
    () => runOf(tenant.id, started.run.runId),
    (run) => run.items.some((item) => item.type === '32' && item.documentStatus === 'contingency'),
    60_000,
  );
  const lost = waiting.items.find((item) => item.type === '32' && item.documentStatus === 'contingency');
  assert.ok(lost?.documentId, JSON.stringify(waiting.items.map((item) => [item.encf, item.documentStatus])));
  // Resent now: asked first, Consulta Estado does not see the first copy yet, so the summary goes
  // again and the tax authority answers that the eNCF was already used.
  await injectFault({ environment: 'certecf', service: 'consultaestado', fault: 'query_lag', count: 1 });
  const resent = await resendCertificationDocument({
    database: harness.database,
    tenantId: tenant.id,
    environment: 'CerteCF',
    documentId: lost.documentId,
    enqueue: harness.enqueue,
    now: new Date(),
  });
  assert.deepEqual([resent.action, resent.status], ['resent', 'contingency']);

  const run = await waitFor(() => runOf(tenant.id, started.run.runId), isOver, 120_000);
  assert.equal(
    run.state,
    'succeeded',
    JSON.stringify([run.failure, run.items.filter((item) => item.state !== 'accepted')]),
  );
  const pool = sqlPoolOf(harness.database);
  const { rows: outcomes } = await pool.query<{ data: { attempt: number; outcome: string } }>(
    `SELECT data FROM document_events WHERE document_id = $1 AND type = 'transmission_outcome' ORDER BY id`,
    [lost.documentId],
  );
  assert.deepEqual(
    outcomes.map((row) => [row.data.attempt, row.data.outcome]),
    [
      [1, 'unknown'],
      [1, 'not_received'],
      [2, 'accepted'],
    ],
  );
  // The second copy was refused as a duplicate; the acceptance of the first is the verdict.
  const { rows: answers } = await pool.query<{ content: Buffer }>(
    `SELECT content FROM artifacts WHERE document_id = $1 AND kind = 'taxauth_response' ORDER BY created_at DESC LIMIT 1`,
    [lost.documentId],
  );
  const answer = JSON.parse(answers[0]?.content.toString('utf8') ?? '{}') as {
    rfce?: { estado?: string; mensajes?: Array<{ valor?: string }> };
    consultaEstado?: { estado?: string };
  };
  assert.equal(answer.rfce?.estado, 'Rechazado');
  assert.match(JSON.stringify(answer.rfce?.mensajes), new RegExp(`${lost.encf} ya fue utilizado`));
  assert.equal(answer.consultaEstado?.estado, 'Aceptado');
});

test('the production activation asked for after the sworn declaration: the eCF directory lists the account, production active and the case approved together', async () => {
  const tenant = await harness.tenantWithCertificate();
  const pool = sqlPoolOf(harness.database);
  const opened = await pool.query<{ id: string }>(
    `INSERT INTO certification_cases (id, tenant_id) VALUES (gen_random_uuid(), $1) RETURNING id`,
    [tenant.id],
  );
  const caseId = opened.rows[0]?.id;
  // Every step up to the sworn declaration is done.
  await pool.query(
    `INSERT INTO certification_step_completions (case_id, step, source)
     SELECT $1, unnest($2::"CertificationStep"[]), 'attestation'`,
    [caseId, CERTIFICATION_STEPS.slice(0, CERTIFICATION_STEPS.indexOf('status_verification'))],
  );
  // The tax authority authorized the account: its eCF directory lists it.
  const listed = await fetch(`${harness.simulator.baseUrl}/_sim/directory`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify([
      { rnc: tenant.rnc, receptionUrl: 'https://receptor.example.com/eCF', environments: ['ecf'] },
    ]),
  });
  assert.equal(listed.status, 204);

  const asked = await requestProductionActivation({
    database: harness.database,
    tenant: { id: tenant.id, productionState: 'not_requested' },
    enqueue: harness.enqueue,
  });
  assert.deepEqual(asked, { productionState: 'pending', checking: true });
  // The sync job asked at once: production and the case, read in one statement, move together.
  const read = async () =>
    (
      await pool.query<{ production: string; state: string; step: string }>(
        `SELECT t.production_state::text AS production, c.state::text AS state, c.step::text AS step
           FROM tenants t JOIN certification_cases c ON c.tenant_id = t.id WHERE c.id = $1`,
        [caseId],
      )
    ).rows[0];
  const activated = await waitFor(read, (row) => row?.production === 'active', 60_000);
  assert.deepEqual(activated, { production: 'active', state: 'approved', step: 'finished' });
  const view = await getCertificationCase({
    database: harness.database,
    tenant: { id: tenant.id, productionState: 'active' },
    environment: 'CerteCF',
  });
  assert.ok(view.steps.every((step) => step.state === 'done'));
});
