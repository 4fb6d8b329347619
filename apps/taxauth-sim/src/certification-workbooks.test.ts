import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, test } from 'node:test';
import {
  formatEncf,
  issueApprovalWorkbook,
  issueEcfWorkbook,
  MODEL_WORKBOOKS,
  WORKBOOK_ERROR_CODES,
  type TApprovalSetWorkbook,
  type TEcfSetWorkbook,
} from '@ecf/certification-sets';
import { buildAcecfXml, signXml, type TEcfTree } from '@ecf/fiscal-core';
import { admin, signEcfRow, type TJson } from '../test/certification-harness.ts';
import {
  authenticate,
  issuerFor,
  jsonOf,
  openSimulator,
  postXml,
  waitForResult,
  type TSimulatorHarness,
} from '../test/simulator-harness.ts';
import { categoryOfRow } from './certification/portal.ts';
import { XLSX_CONTENT_TYPE } from './routes/certification.ts';

/** A taxpayer whose real workbooks were issued elsewhere and are loaded from outside. */
const OTHER = '101010101';
const other = issuerFor(OTHER);
const path = `/_sim/certification/${OTHER}`;

let harness: TSimulatorHarness;
let token: string;
let ecfWorkbook: { content: Uint8Array; workbook: TEcfSetWorkbook };
let approvalWorkbook: { content: Uint8Array; workbook: TApprovalSetWorkbook };

function sequenceFrom(first: number): (type: string) => string {
  const next = new Map<string, number>();
  return (type) => {
    const sequence = next.get(type) ?? first;
    next.set(type, sequence + 1);
    return formatEncf(type, sequence);
  };
}

before(async () => {
  harness = await openSimulator({ processingDelayMs: 0 });
  token = await authenticate(harness.baseUrl, 'certecf', other);
  const ecf = await issueEcfWorkbook({
    template: new Uint8Array(await readFile(MODEL_WORKBOOKS.ecfSet)),
    rnc: OTHER,
    nextEncf: sequenceFrom(301),
  });
  assert.ok(ecf.ok);
  ecfWorkbook = ecf;
  const approvals = await issueApprovalWorkbook({
    template: new Uint8Array(await readFile(MODEL_WORKBOOKS.approvalSet)),
    buyerRnc: OTHER,
    nextEncf: sequenceFrom(801),
  });
  assert.ok(approvals.ok);
  approvalWorkbook = approvals;
});
after(async () => {
  await harness.close();
});

async function putWorkbook(
  kind: 'ecf' | 'approvals',
  content: Uint8Array,
  contentType: string = XLSX_CONTENT_TYPE,
  rncPath = path,
): Promise<{ status: number; body: TJson }> {
  const response = await fetch(`${harness.baseUrl}${rncPath}/workbooks/${kind}`, {
    method: 'PUT',
    headers: { 'content-type': contentType },
    body: Buffer.from(content),
  });
  return { status: response.status, body: await response.json() };
}

async function send(
  row: TEcfSetWorkbook['ecf'][number],
  mutate?: Parameters<typeof signEcfRow>[3],
): Promise<Record<string, TJson>> {
  const signed = await signEcfRow(row, ecfWorkbook.workbook, other.certificate, mutate);
  const response = await postXml(
    `${harness.baseUrl}/certecf/recepcion/api/facturaselectronicas`,
    signed.xml,
    {
      fileName: signed.fileName,
      token,
    },
  );
  return waitForResult(harness.baseUrl, 'certecf', token, (await jsonOf(response)).trackId);
}

test('a real workbook of another RNC, loaded as raw xlsx, registers the RNC and is what it is judged against', async () => {
  const loaded = await putWorkbook('ecf', ecfWorkbook.content);
  assert.equal(loaded.status, 201, JSON.stringify(loaded.body));
  assert.equal(loaded.body.rnc, OTHER);
  assert.equal(loaded.body.step, 'data_tests_ecf');
  assert.equal(loaded.body.dataTests.set.origin, 'loaded');
  assert.equal(
    loaded.body.approvalTests.set.origin,
    'issued',
    'the other workbook is issued by the simulator',
  );
  assert.equal(loaded.body.dataTests.expected, 25);
  const workbookEncfs = ecfWorkbook.workbook.ecf
    .filter((row) => categoryOfRow(row) !== '32_rfce')
    .map((row) => row.values['ENCF']);
  assert.deepEqual(loaded.body.dataTests.pendingEncfs.slice(0, workbookEncfs.length), workbookEncfs);
  const download = await fetch(`${harness.baseUrl}${path}/workbooks/ecf`);
  assert.deepEqual(new Uint8Array(await download.arrayBuffer()), ecfWorkbook.content, 'the file as loaded');

  const row = ecfWorkbook.workbook.ecf.find((candidate) => candidate.values['TipoeCF'] === '31');
  assert.ok(row !== undefined);
  const result = await send(row);
  assert.equal(result['estado'], 'Aceptado', JSON.stringify(result));
  assert.equal((await admin(harness.baseUrl, 'GET', path)).body.dataTests.accepted, 1);
});

test('loaded as base64 JSON, a workbook restarts the data tests against it', async () => {
  const loaded = await admin(harness.baseUrl, 'PUT', `${path}/workbooks/ecf`, {
    workbookBase64: Buffer.from(ecfWorkbook.content).toString('base64'),
  });
  assert.equal(loaded.status, 200, JSON.stringify(loaded.body));
  assert.equal(loaded.body.dataTests.set.origin, 'loaded');
  assert.equal(loaded.body.dataTests.accepted, 0, 'progress of the earlier load does not count');
});

test('a rejected loaded set stays the set with its progress cleared; its used eNCFs stay used', async () => {
  const rows = ecfWorkbook.workbook.ecf.filter((candidate) => candidate.values['TipoeCF'] === '31');
  // The first E31 was accepted under the earlier load: its eNCF is used already.
  const [, first, second] = rows;
  assert.ok(first !== undefined && second !== undefined);
  assert.equal((await send(first))['estado'], 'Aceptado');
  const rejected = await send(second, (document) => {
    const header = document.ECF['Encabezado'] as Record<string, TEcfTree>;
    (header['Emisor'] as Record<string, unknown>)['RazonSocialEmisor'] = 'Otro Nombre, SRL';
    return document;
  });
  assert.equal(rejected['estado'], 'Rechazado');
  assert.deepEqual(rejected['mensajes'], [
    {
      valor: `El valor del campo RazonSocialEmisor (${second.values['RazonSocialEmisor']}) no coincide con el valor (Otro Nombre, SRL)`,
      codigo: 16,
    },
  ]);
  let status = (await admin(harness.baseUrl, 'GET', path)).body;
  assert.equal(status.dataTests.set.origin, 'loaded');
  assert.equal(status.dataTests.accepted, 0);
  assert.equal(status.dataTests.resets, 1);
  assert.equal(status.dataTests.lastRejection.field, 'RazonSocialEmisor');

  // Sent again, the accepted document's eNCF is used: rejected, and the data tests restart again.
  const again = await send(first);
  assert.equal(again['estado'], 'Rechazado');
  assert.match(again['mensajes'][0].valor, /ya fue utilizado/);
  status = (await admin(harness.baseUrl, 'GET', path)).body;
  assert.equal(status.dataTests.resets, 2);
  assert.equal(status.dataTests.lastRejection.field, null);

  const restarted = await admin(harness.baseUrl, 'POST', `${path}/reset`, { part: 'data' });
  assert.equal(restarted.status, 200);
  assert.equal(restarted.body.dataTests.resets, 3);
  assert.equal(restarted.body.dataTests.set.origin, 'loaded', 'a loaded set is kept');
  const simulation = await admin(harness.baseUrl, 'POST', `${path}/reset`, { part: 'simulation' });
  assert.equal(simulation.status, 409, 'no simulation before the data tests are done');
});

test('a workbook of another RNC is 422, an unreadable one 400 with the reader errors, the other kind 400', async () => {
  const mismatch = await putWorkbook(
    'ecf',
    ecfWorkbook.content,
    XLSX_CONTENT_TYPE,
    '/_sim/certification/131880738',
  );
  assert.equal(mismatch.status, 422);
  assert.equal(mismatch.body.error.code, 'WORKBOOK_RNC_MISMATCH');
  assert.deepEqual(mismatch.body.error.details, { rnc: '131880738', workbookRnc: OTHER });
  assert.equal(
    (await admin(harness.baseUrl, 'GET', '/_sim/certification/131880738')).status,
    404,
    'nothing registered',
  );

  const corrupt = await putWorkbook(
    'ecf',
    new Uint8Array([80, 75, 3, 4, 1, 2, 3]),
    'application/octet-stream',
  );
  assert.equal(corrupt.status, 400);
  assert.equal(corrupt.body.error.code, 'WORKBOOK_UNREADABLE');
  assert.deepEqual(Object.keys(corrupt.body.error.details.errors[0]).sort(), [
    'code',
    'column',
    'message',
    'row',
    'sheet',
  ]);
  assert.equal(corrupt.body.error.details.errors[0].code, WORKBOOK_ERROR_CODES.WORKBOOK_CORRUPT);

  const wrongKind = await putWorkbook('ecf', approvalWorkbook.content);
  assert.equal(wrongKind.status, 400);
  assert.equal(wrongKind.body.error.code, 'WORKBOOK_KIND_MISMATCH');
  const noBody = await admin(harness.baseUrl, 'PUT', `${path}/workbooks/ecf`, { workbook: 'x' });
  assert.equal(noBody.status, 400);
  assert.equal(noBody.body.error.code, 'INVALID_CERTIFICATION_REQUEST');
  const tooLarge = await putWorkbook('ecf', new Uint8Array(3 * 1024 * 1024));
  assert.equal(tooLarge.status, 413);
});

test('a loaded approval set: the test issuer e-CF its rows answer are known, so their ACECF are accepted', async () => {
  const loaded = await putWorkbook('approvals', approvalWorkbook.content, 'application/octet-stream');
  assert.equal(loaded.status, 200, JSON.stringify(loaded.body));
  assert.equal(loaded.body.approvalTests.set.origin, 'loaded');
  assert.equal(loaded.body.approvalTests.expected, 11);
  const row = approvalWorkbook.workbook.approvals[0];
  assert.ok(row !== undefined);
  const acecf = (encf: string) => {
    const built = buildAcecfXml({
      rncEmisor: row.values['RNCEmisor'] ?? '',
      encf,
      fechaEmision: row.values['FechaEmision'] ?? '',
      montoTotal: row.values['MontoTotal'] ?? '',
      rncComprador: OTHER,
      estado: 'accepted',
      approvedAt: row.values['FechaHoraAprobacionComercial'] ?? '',
    });
    assert.ok(built.success);
    return signXml(built.data, other.certificate).xml;
  };
  const url = `${harness.baseUrl}/certecf/aprobacioncomercial/api/aprobacioncomercial`;
  const accepted = await postXml(url, acecf(row.values['eNCF'] ?? ''), { token });
  assert.equal(accepted.status, 200, JSON.stringify(await accepted.clone().json()));
  assert.equal((await jsonOf(accepted)).codigo, '1');
  const unknown = await postXml(url, acecf('E310000009999'), { token });
  assert.equal(unknown.status, 400);
  assert.deepEqual((await jsonOf(unknown)).mensaje, [
    'Factura no encontrada para esta Aprobación comercial.',
  ]);
});
