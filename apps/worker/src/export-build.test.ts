import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import ExcelJS from 'exceljs';
import { seedUser } from '@ecf/db';
import { createExport, getExport, getExportFile } from '@ecf/services';
import { openPipelineHarness, waitFor, type TPipelineHarness } from '../test/pipeline-harness.ts';

let harness: TPipelineHarness;
before(async () => {
  harness = await openPipelineHarness({
    processingDelayMs: 50,
    xsd: true,
    worker: { pollingIntervalSeconds: 0.5 },
  });
});
after(async () => {
  await harness.close();
});

test('export.build: a large export is queued with its job, built page by page by the worker with its progress, and opens in Excel with exact amounts', async () => {
  const tenant = await harness.tenantWithCertificate();
  const user = await seedUser(harness.database, { passwordHash: '$argon2id$v=19$m=19456,t=2,p=1$x$y' });
  // Three real e-CF through the pipeline: signed (the amounts the export reads), sent, accepted.
  const documents = [];
  for (const buyer of [
    { rnc: '101672919', name: 'Ferretería Los Pinos SRL' },
    { rnc: '131880681', name: '=Comercial "Ñandú", SRL' },
    { rnc: '101672919', name: 'Ferretería Los Pinos SRL' },
  ]) {
    const document = await harness.seedQueuedE31(tenant, buyer);
    await harness.worker.boss.send('document.sign', { documentId: document.id });
    documents.push(document);
  }
  for (const document of documents)
    await waitFor(
      () => harness.database.document.findUniqueOrThrow({ where: { id: document.id } }),
      (row) => row.status === 'accepted',
    );

  // Above the direct threshold (1 here): queued, its job committed with it.
  const started = await createExport({
    database: harness.database,
    enqueue: harness.enqueue,
    tenantId: tenant.id,
    userId: user.id,
    request: { kind: 'issued', environment: 'TesteCF', format: 'xlsx', month: '2026-04' },
    now: () => new Date(),
    directMaxRows: 1,
  });
  assert.deepEqual({ status: started.status, rows: started.rows }, { status: 'queued', rows: null });
  const scope = {
    database: harness.database,
    tenantId: tenant.id,
    userId: user.id,
    exportId: started.exportId,
  };
  const ready = await waitFor(
    () => getExport({ ...scope, now: new Date() }),
    (view) => view.status === 'ready' || view.status === 'failed',
  );
  assert.equal(ready.status, 'ready');
  assert.deepEqual([ready.rowsDone, ready.rowsTotal, ready.percent], [3, 3, 100]);
  assert.equal(ready.fileName, 'emitidos-TesteCF-2026-04.xlsx');

  // The stored file opens in exceljs: numeric cells with two decimals, the totals row exact.
  const file = await getExportFile({ ...scope, now: new Date() });
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(Buffer.from(file.content) as unknown as ArrayBuffer);
  const sheet = workbook.getWorksheet('Emitidos');
  assert.ok(sheet, 'the sheet is named Emitidos');
  assert.deepEqual((sheet.getRow(1).values as unknown[]).slice(1), [
    'e-NCF',
    'Tipo',
    'Fecha de emisión',
    'RNC o cédula del comprador',
    'Nombre del comprador',
    'Estado',
    'Monto gravado',
    'Monto exento',
    'ITBIS',
    'Total',
  ]);
  for (const rowNumber of [2, 3, 4]) {
    const row = sheet.getRow(rowNumber);
    assert.equal(row.getCell(3).value, '2026-04-01');
    assert.equal(row.getCell(6).value, 'Aceptado');
    // 10 × 450.00 taxed at 18 %.
    assert.deepEqual(
      [row.getCell(7).value, row.getCell(8).value, row.getCell(9).value, row.getCell(10).value],
      [4500, 0, 810, 5310],
    );
    assert.equal(row.getCell(10).numFmt, '#,##0.00');
  }
  // xlsx text is never a formula: the buyer's name is kept as written.
  const names = [2, 3, 4].map((rowNumber) => sheet.getRow(rowNumber).getCell(5).value);
  assert.ok(names.includes('=Comercial "Ñandú", SRL'));
  const totals = sheet.getRow(5);
  assert.deepEqual((totals.values as unknown[]).slice(1, 3), ['Totales', '3 documentos']);
  assert.deepEqual(
    [totals.getCell(7).value, totals.getCell(9).value, totals.getCell(10).value],
    [13500, 2430, 15930],
  );
  assert.equal(sheet.rowCount, 5);

  // A redelivered job of a finished export does nothing.
  await harness.worker.boss.send('export.build', { exportId: started.exportId });
  await new Promise((resolve) => setTimeout(resolve, 1500));
  const again = await getExport({ ...scope, now: new Date() });
  assert.equal(again.status, 'ready');
  const entry = await harness.database.portalAuditEntry.findFirstOrThrow({
    where: { tenantId: tenant.id, action: 'export.created', targetId: started.exportId },
  });
  assert.equal((entry.data as { format: string }).format, 'xlsx');
});
