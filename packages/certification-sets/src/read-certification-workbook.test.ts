import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import ExcelJS from 'exceljs';
import { strToU8, zipSync } from 'fflate';
import { readCertificationRowsJson, readCertificationWorkbook } from './read-certification-workbook.ts';
import { WORKBOOK_ERROR_CODES, type TWorkbookError } from './workbook-types.ts';

const FIXTURES = new URL('../model/', import.meta.url);
const ECF_SET = readFileSync(new URL('132641566-set-pruebas-ecf.xlsx', FIXTURES));
const APPROVAL_SET = readFileSync(new URL('131256432-set-aprobaciones-comerciales.xlsx', FIXTURES));

async function readEcfSet() {
  const result = await readCertificationWorkbook({ content: ECF_SET });
  assert.ok(result.ok, JSON.stringify(!result.ok && result.errors));
  assert.equal(result.workbook.kind, 'ecf_set');
  if (result.workbook.kind !== 'ecf_set') throw new Error('unreachable');
  return result.workbook;
}

/** The shared e-CF set changed by `change` (one cell or header), as xlsx bytes. */
async function changedEcfSet(change: (sheet: ExcelJS.Worksheet) => void): Promise<Uint8Array> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(ECF_SET as never);
  const sheet = workbook.getWorksheet('ECF');
  assert.ok(sheet);
  change(sheet);
  return new Uint8Array(await workbook.xlsx.writeBuffer());
}

function columnNumberOf(sheet: ExcelJS.Worksheet, header: string): number {
  let found = 0;
  sheet.getRow(1).eachCell((cell, column) => {
    if (cell.value === header) found = column;
  });
  assert.ok(found > 0, `no column ${header}`);
  return found;
}

function hasError(errors: readonly TWorkbookError[], expected: Partial<TWorkbookError>): boolean {
  return errors.some((error) =>
    Object.entries(expected).every(([key, value]) => error[key as keyof TWorkbookError] === value),
  );
}

test('the e-CF set: 25 ECF rows and 4 RFCE rows of RNC 132641566, every text as written', async () => {
  const workbook = await readEcfSet();
  assert.equal(workbook.issuerRnc, '132641566');
  assert.equal(workbook.ecf.length, 25);
  assert.equal(workbook.rfce.length, 4);

  const types = new Map<string, number>();
  for (const row of workbook.ecf) {
    const type = row.values['TipoeCF'] ?? '';
    types.set(type, (types.get(type) ?? 0) + 1);
  }
  assert.deepEqual(Object.fromEntries([...types].sort()), {
    '31': 4,
    '32': 6,
    '33': 1,
    '34': 2,
    '41': 2,
    '43': 2,
    '44': 2,
    '45': 2,
    '46': 2,
    '47': 2,
  });

  const invoice = workbook.ecf.find((row) => row.values['ENCF'] === 'E310000000001');
  assert.ok(invoice);
  assert.equal(invoice.row, 7);
  assert.equal(invoice.caseId, '132641566E310000000001');
  // The tax authority compares literally: 15.00 must not become 15, nor 400.00 become 400.
  assert.equal(invoice.values['CantidadItem[1]'], '15.00');
  assert.equal(invoice.values['PrecioUnitarioItem[1]'], '400.00');
  assert.equal(invoice.values['MontoTotal'], '7080.00');
  assert.equal(invoice.values['Version'], '1.0');
  assert.equal(invoice.values['TipoIngresos'], '01');
  // `#e` is absent, not the text "#e".
  assert.equal(invoice.values['IndicadorNotaCredito'], undefined);
  assert.ok(!Object.values(invoice.values).includes('#e'));
  const withFourDecimals = workbook.ecf.find((row) => row.values['ENCF'] === 'E410000000010');
  assert.equal(withFourDecimals?.values['PrecioUnitarioItem[1]'], '385.0000');

  // The RFCE rows are the E32 below RD$250,000, and their security code is left to the sender.
  const smallConsumerInvoices = workbook.ecf
    .filter((row) => row.values['TipoeCF'] === '32' && Number(row.values['MontoTotal']) < 250_000)
    .map((row) => row.values['ENCF'])
    .sort();
  assert.deepEqual(workbook.rfce.map((row) => row.values['ENCF']).sort(), smallConsumerInvoices);
  for (const row of workbook.rfce) assert.equal(row.values['CodigoSeguridadeCF'], undefined);
});

test('the approval set: 11 rows for buyer 131256432, numeric cells as their text, blank absent', async () => {
  const result = await readCertificationWorkbook({ content: APPROVAL_SET });
  assert.ok(result.ok, JSON.stringify(!result.ok && result.errors));
  assert.equal(result.workbook.kind, 'approval_set');
  if (result.workbook.kind !== 'approval_set') return;
  assert.equal(result.workbook.buyerRnc, '131256432');
  assert.equal(result.workbook.approvals.length, 11);
  const first = result.workbook.approvals[0];
  assert.deepEqual(first, {
    row: 2,
    values: {
      Version: '1.0',
      RNCEmisor: '131880681',
      eNCF: 'E310000000001',
      FechaEmision: '01-04-2020',
      MontoTotal: '7080',
      RNCComprador: '131256432',
      Estado: '1',
      FechaHoraAprobacionComercial: '09-05-2026 01:51:42',
    },
  });
  for (const approval of result.workbook.approvals) {
    assert.equal(typeof approval.values['MontoTotal'], 'string');
    assert.match(approval.values['MontoTotal'] ?? '', /^\d+(\.\d+)?$/);
    assert.match(approval.values['Estado'] ?? '', /^\d$/);
  }
});

test('a row of another RNC is refused on its sheet, row and column', async () => {
  const content = await changedEcfSet((sheet) => {
    sheet.getRow(5).getCell(columnNumberOf(sheet, 'RNCEmisor')).value = '101010101';
  });
  const result = await readCertificationWorkbook({ content });
  assert.ok(!result.ok);
  assert.equal(result.errors.length, 1, JSON.stringify(result.errors));
  assert.ok(
    hasError(result.errors, {
      sheet: 'ECF',
      row: 5,
      column: 'RNCEmisor',
      code: WORKBOOK_ERROR_CODES.CERTIFICATION_SET_ISSUER_MISMATCH,
    }),
    JSON.stringify(result.errors),
  );
  assert.match(result.errors[0]?.message ?? '', /101010101.*132641566/);
});

test('a whole set for another taxpayer than the expected one is refused row by row', async () => {
  const result = await readCertificationWorkbook({ content: ECF_SET, expectedRnc: '101010101' });
  assert.ok(!result.ok);
  const mismatches = result.errors.filter(
    (error) => error.code === WORKBOOK_ERROR_CODES.CERTIFICATION_SET_ISSUER_MISMATCH,
  );
  assert.ok(hasError(mismatches, { sheet: 'ECF', row: 2, column: 'RNCEmisor' }));
  assert.ok(hasError(mismatches, { sheet: 'RFCE', row: 5, column: 'RNCEmisor' }));
  const approvals = await readCertificationWorkbook({ content: APPROVAL_SET, expectedRnc: '132641566' });
  assert.ok(!approvals.ok);
  assert.ok(
    hasError(approvals.errors, {
      sheet: 'ACEECF_Generadas',
      row: 2,
      column: 'RNCComprador',
      code: WORKBOOK_ERROR_CODES.CERTIFICATION_SET_ISSUER_MISMATCH,
    }),
  );
});

test('an unknown column is refused with its sheet, header row and name', async () => {
  const content = await changedEcfSet((sheet) => {
    sheet.getRow(1).getCell(columnNumberOf(sheet, 'TotalFob')).value = 'TotalFobb';
  });
  const result = await readCertificationWorkbook({ content });
  assert.ok(!result.ok);
  assert.deepEqual(
    result.errors.map(({ sheet, row, column, code }) => ({ sheet, row, column, code })),
    [{ sheet: 'ECF', row: 1, column: 'TotalFobb', code: WORKBOOK_ERROR_CODES.WORKBOOK_COLUMN_UNKNOWN }],
  );
});

test('a header written twice is refused rather than one of its cells silently winning', async () => {
  const content = await changedEcfSet((sheet) => {
    sheet.getRow(1).getCell(columnNumberOf(sheet, 'TotalFob')).value = 'Seguro';
  });
  const result = await readCertificationWorkbook({ content });
  assert.ok(!result.ok);
  assert.deepEqual(
    result.errors.map(({ sheet, row, column, code }) => ({ sheet, row, column, code })),
    [{ sheet: 'ECF', row: 1, column: 'Seguro', code: WORKBOOK_ERROR_CODES.WORKBOOK_COLUMN_DUPLICATE }],
  );
});

test('a corrupt file is refused: random bytes, a zip that is not xlsx, a workbook without the sheets', async () => {
  const random = await readCertificationWorkbook({ content: randomBytes(4096) });
  assert.ok(!random.ok);
  assert.deepEqual(
    random.errors.map(({ sheet, row, column, code }) => ({ sheet, row, column, code })),
    [{ sheet: null, row: null, column: null, code: WORKBOOK_ERROR_CODES.WORKBOOK_CORRUPT }],
  );

  const zip = zipSync({ 'readme.txt': strToU8('not a workbook') });
  const notXlsx = await readCertificationWorkbook({ content: zip });
  assert.ok(!notXlsx.ok);
  assert.equal(
    notXlsx.errors[0]?.code,
    WORKBOOK_ERROR_CODES.WORKBOOK_CORRUPT,
    JSON.stringify(notXlsx.errors),
  );

  const other = new ExcelJS.Workbook();
  other.addWorksheet('Hoja1').addRow(['Version', 'TipoeCF']);
  other.addWorksheet('RFCE').addRow(['CasoPrueba']);
  const withoutEcf = await readCertificationWorkbook({
    content: new Uint8Array(await other.xlsx.writeBuffer()),
  });
  assert.ok(!withoutEcf.ok);
  assert.deepEqual(
    withoutEcf.errors.map(({ sheet, row, column, code }) => ({ sheet, row, column, code })),
    [{ sheet: 'ECF', row: null, column: null, code: WORKBOOK_ERROR_CODES.WORKBOOK_SHEET_MISSING }],
  );
});

test('the JSON form of the rows reads like the workbook; a number instead of text is refused', async () => {
  const workbook = await readEcfSet();
  // Absent cells as the three spellings the JSON form accepts: `#e`, "" and null.
  const ecf = workbook.ecf.map((row) => ({ TotalFob: '#e', Seguro: '', Flete: null, ...row.values }));
  const rfce = workbook.rfce.map((row) => ({ CodigoSeguridadeCF: '', ...row.values }));
  const result = readCertificationRowsJson({ ecf, rfce });
  assert.ok(result.ok, JSON.stringify(!result.ok && result.errors));
  if (result.workbook.kind !== 'ecf_set') throw new Error('unreachable');
  assert.equal(result.workbook.issuerRnc, '132641566');
  assert.deepEqual(
    result.workbook.ecf.map((row) => row.values),
    workbook.ecf.map((row) => row.values),
  );

  const numeric = readCertificationRowsJson({
    ecf: [{ ...workbook.ecf[0]?.values, MontoTotal: 400000 }],
    rfce,
  });
  assert.ok(!numeric.ok);
  assert.ok(
    hasError(numeric.errors, {
      sheet: 'ECF',
      row: 1,
      column: 'MontoTotal',
      code: WORKBOOK_ERROR_CODES.WORKBOOK_VALUE_NOT_TEXT,
    }),
  );
});
