/**
 * The commercial approval tests through the real worker against the simulator's certification
 * portal: the tax authority issues this taxpayer's workbooks, the data run passes its literal
 * judging, then the `ACEECF_Generadas` rows are signed and sent one by one and the portal moves on;
 * a row the portal does not recognise as written stops the send at that row. A workbook whose E31 is
 * the tax authority's beer line (additional taxes 006 + 023 on one item) goes through prevalidation,
 * the run and the literal judging like any other.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import ExcelJS from 'exceljs';
import {
  getCertificationApprovals,
  getCertificationCase,
  getCertificationRun,
  prevalidateCertificationSet,
  sendCertificationApprovals,
  startCertificationRun,
  type TCertificationApprovalsView,
} from '@ecf/services';
import { BEER_ROW } from '@ecf/certification-sets/testing';
import { loadXsdValidators } from '@ecf/config';
import type { TXsdValidators } from '@ecf/fiscal-core';
import {
  openPipelineHarness,
  TEST_XSD_DIRECTORY,
  waitFor,
  type TPipelineHarness,
} from '../test/pipeline-harness.ts';

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

async function portal(rnc: string, method: string, path = '', body?: unknown) {
  const response = await fetch(`${harness.simulator.baseUrl}/_sim/certification/${rnc}${path}`, {
    method,
    ...(body === undefined
      ? {}
      : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
  const type = response.headers.get('content-type') ?? '';
  return {
    status: response.status,
    json: type.includes('json') ? ((await response.json()) as Record<string, unknown>) : null,
    bytes: type.includes('spreadsheet') ? Buffer.from(await response.arrayBuffer()) : null,
  };
}

/** A tenant the simulator registered, past its data tests (the run judged literally against its workbook). */
async function tenantPastDataTests() {
  const tenant = await harness.tenantWithCertificate();
  assert.equal((await portal(tenant.rnc, 'POST', '', { legalName: tenant.legalName })).status, 201);
  const workbook = await portal(tenant.rnc, 'GET', '/workbooks/ecf');
  assert.ok(workbook.bytes);
  const started = await startCertificationRun({
    database: harness.database,
    tenant,
    environment: 'CerteCF',
    xsd,
    now: new Date(),
    body: { workbookBase64: workbook.bytes.toString('base64') },
    enqueue: harness.enqueue,
  });
  const run = await waitFor(
    () =>
      getCertificationRun({
        database: harness.database,
        tenantId: tenant.id,
        environment: 'CerteCF',
        runId: started.run.runId,
      }),
    (current) => ['succeeded', 'failed', 'stopped'].includes(current.state),
    120_000,
  );
  assert.equal(run.state, 'succeeded', JSON.stringify(run.failure));
  const status = await portal(tenant.rnc, 'GET');
  assert.equal(
    status.json?.['step'],
    'data_tests_commercial_approval',
    'the portal judged every row as written',
  );
  return tenant;
}

async function approvalsOver(tenantId: string): Promise<TCertificationApprovalsView> {
  const view = await waitFor(
    () => getCertificationApprovals({ database: harness.database, tenantId, environment: 'CerteCF' }),
    (current) => current !== null && ['succeeded', 'failed'].includes(current.state),
    90_000,
  );
  assert.ok(view);
  return view;
}

test(
  'the approval tests as the tax authority wrote them: every row accepted, the portal and the case move to the simulation',
  { timeout: 240_000 },
  async () => {
    const tenant = await tenantPastDataTests();
    const workbook = await portal(tenant.rnc, 'GET', '/workbooks/approvals');
    assert.ok(workbook.bytes);
    const sent = await sendCertificationApprovals({
      database: harness.database,
      tenant,
      environment: 'CerteCF',
      body: { workbookBase64: workbook.bytes.toString('base64') },
      enqueue: harness.enqueue,
      now: new Date(),
    });
    assert.equal(sent.commercialApprovals.state, 'queued');
    const view = await approvalsOver(tenant.id);
    assert.equal(view.state, 'succeeded', JSON.stringify(view.failure));
    assert.ok(view.items.every((item) => item.state === 'accepted'));
    assert.equal((await portal(tenant.rnc, 'GET')).json?.['step'], 'simulation_ecf');
    const caseView = await getCertificationCase({
      database: harness.database,
      tenant,
      environment: 'CerteCF',
    });
    assert.equal(caseView.step, 'simulation_ecf');
  },
);

test(
  'a row the tax authority does not recognise stops the send there: the rows after it are never sent',
  { timeout: 240_000 },
  async () => {
    const tenant = await tenantPastDataTests();
    const issued = await portal(tenant.rnc, 'GET', '/workbooks/approvals');
    assert.ok(issued.bytes);
    // The third row's approval time changed by a second: still a valid ACECF, not the workbook's.
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(issued.bytes as never);
    const sheet = workbook.getWorksheet('ACEECF_Generadas');
    assert.ok(sheet);
    const header = (sheet.getRow(1).values as unknown[]).map((value) =>
      typeof value === 'string' ? value : '',
    );
    const column = header.indexOf('FechaHoraAprobacionComercial');
    const cell = sheet.getRow(4).getCell(column);
    const original = cell.text;
    cell.value = original.replace(/(\d\d)$/, (seconds) =>
      String((Number(seconds) + 1) % 60).padStart(2, '0'),
    );
    const altered = Buffer.from(await workbook.xlsx.writeBuffer());

    await sendCertificationApprovals({
      database: harness.database,
      tenant,
      environment: 'CerteCF',
      body: { workbookBase64: altered.toString('base64') },
      enqueue: harness.enqueue,
      now: new Date(),
    });
    const view = await approvalsOver(tenant.id);
    assert.equal(view.state, 'failed');
    assert.deepEqual(
      view.items.map((item) => item.state),
      ['accepted', 'accepted', 'rejected', ...view.items.slice(3).map(() => 'stopped')],
    );
    const rejected = view.items[2];
    assert.match(JSON.stringify(rejected?.answer), /FechaHoraAprobacionComercial/);
    assert.equal((view.failure as { row: number }).row, 4);
    const caseView = await getCertificationCase({
      database: harness.database,
      tenant,
      environment: 'CerteCF',
    });
    assert.equal(caseView.step, 'data_tests_commercial_approval');
  },
);

test(
  'a workbook with the tax authority beer line (006 + 023 on one item): prevalidated, run and judged literally',
  { timeout: 240_000 },
  async () => {
    const tenant = await harness.tenantWithCertificate();
    assert.equal((await portal(tenant.rnc, 'POST', '', { legalName: tenant.legalName })).status, 201);
    const issued = await portal(tenant.rnc, 'GET', '/workbooks/ecf');
    assert.ok(issued.bytes);
    // The first E31 becomes the beer row: its parties stay, its items, taxes and totals are the row's.
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(issued.bytes as never);
    const sheet = workbook.getWorksheet('ECF');
    assert.ok(sheet);
    const headers = (sheet.getRow(1).values as unknown[]).map((value) =>
      typeof value === 'string' ? value : '',
    );
    let target: ExcelJS.Row | undefined;
    sheet.eachRow((row, number) => {
      if (number > 1 && target === undefined && row.getCell(headers.indexOf('TipoeCF')).text === '31')
        target = row;
    });
    assert.ok(target);
    headers.forEach((header, column) => {
      if (header === '' || column === 0) return;
      const cell = (target as ExcelJS.Row).getCell(column);
      const beer = BEER_ROW[header];
      if (beer !== undefined) cell.value = beer;
      else if (header.includes('[') && !header.startsWith('TelefonoEmisor[')) cell.value = '#e';
    });
    const encf = target.getCell(headers.indexOf('ENCF')).text;
    const body = { workbookBase64: Buffer.from(await workbook.xlsx.writeBuffer()).toString('base64') };
    const loaded = await portal(tenant.rnc, 'PUT', '/workbooks/ecf', body);
    assert.equal(loaded.status, 200, JSON.stringify(loaded.json));

    const context = { database: harness.database, tenant, environment: 'CerteCF' as const, xsd };
    const prevalidated = await prevalidateCertificationSet({ ...context, now: new Date(), body });
    const beer = prevalidated.documents.find((document) => document.encf === encf);
    assert.ok(beer, `${encf} is planned`);
    // The model set's old sequences only warn about their dates; nothing about the additional taxes.
    assert.deepEqual(
      beer.warnings.filter((warning) => !warning.code.startsWith('SEQUENCE_')),
      [],
      'no ISC or squaring warning on the beer row',
    );

    const started = await startCertificationRun({
      ...context,
      now: new Date(),
      body,
      enqueue: harness.enqueue,
    });
    const run = await waitFor(
      () =>
        getCertificationRun({
          database: harness.database,
          tenantId: tenant.id,
          environment: 'CerteCF',
          runId: started.run.runId,
        }),
      (current) => ['succeeded', 'failed', 'stopped'].includes(current.state),
      120_000,
    );
    assert.equal(run.state, 'succeeded', JSON.stringify(run.failure));
    assert.equal(
      run.items.find((item) => item.encf === encf)?.state,
      'accepted',
      'Aceptado, not conditional',
    );
    const status = await portal(tenant.rnc, 'GET');
    assert.equal(
      status.json?.['step'],
      'data_tests_commercial_approval',
      'the portal judged every row, the beer row included, as written',
    );
  },
);
