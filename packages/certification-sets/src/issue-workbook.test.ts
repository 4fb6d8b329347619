import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import ExcelJS from 'exceljs';
import {
  encfTypeOf,
  formatEncf,
  issueApprovalWorkbook,
  issueEcfWorkbook,
  renumberEcfSet,
  type TEcfSetWorkbook,
} from './issue-workbook.ts';
import { MODEL_WORKBOOKS, TAXAUTH_TEST_ISSUER_RNC } from './model-workbooks.ts';
import { readCertificationWorkbook } from './read-certification-workbook.ts';
import { WORKBOOK_ERROR_CODES } from './workbook-types.ts';

const ECF_TEMPLATE = new Uint8Array(readFileSync(MODEL_WORKBOOKS.ecfSet));
const APPROVAL_TEMPLATE = new Uint8Array(readFileSync(MODEL_WORKBOOKS.approvalSet));
const RNC = '101010101';

let template: TEcfSetWorkbook;

before(async () => {
  const read = await readCertificationWorkbook({ content: ECF_TEMPLATE });
  if (!read.ok || read.workbook.kind !== 'ecf_set') throw new Error(JSON.stringify(read));
  template = read.workbook;
});

/** eNCFs per type from `first` on, as the simulator's allocator gives them. */
function sequenceFrom(first: number): (type: string) => string {
  const next = new Map<string, number>();
  return (type) => {
    const sequence = next.get(type) ?? first;
    next.set(type, sequence + 1);
    return formatEncf(type, sequence);
  };
}

type TCellDump = Map<string, { type: number; text: string }>;

/** Every non-blank cell of every sheet (`#e` included), as `sheet!row!column` → type and text. */
async function dumpCells(content: Uint8Array): Promise<TCellDump> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(Buffer.from(content) as never);
  const cells: TCellDump = new Map();
  for (const sheet of book.worksheets) {
    sheet.eachRow({ includeEmpty: false }, (row, rowNumber) => {
      row.eachCell({ includeEmpty: false }, (cell, column) => {
        const text = typeof cell.value === 'string' ? cell.value : cell.text;
        cells.set(`${sheet.name}!${rowNumber}!${column}`, { type: cell.type, text });
      });
    });
  }
  return cells;
}

/** The header of each column of each sheet. */
async function headersOf(content: Uint8Array): Promise<Map<string, string>> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(Buffer.from(content) as never);
  const headers = new Map<string, string>();
  for (const sheet of book.worksheets)
    sheet.getRow(1).eachCell((cell, column) => headers.set(`${sheet.name}!${column}`, cell.text));
  return headers;
}

test('an issued data-test set: the new RNC and fresh eNCFs, notes and summaries follow, every other cell unchanged', async () => {
  const issued = await issueEcfWorkbook({ template: ECF_TEMPLATE, rnc: RNC, nextEncf: sequenceFrom(501) });
  assert.ok(issued.ok, JSON.stringify(!issued.ok && issued.errors));

  // The reader reads the issued workbook back as exactly the rows the writer reports.
  const reread = await readCertificationWorkbook({ content: issued.content, expectedRnc: RNC });
  assert.ok(reread.ok, JSON.stringify(!reread.ok && reread.errors));
  assert.deepEqual(reread.workbook, issued.workbook);
  assert.equal(issued.workbook.issuerRnc, RNC);
  assert.equal(issued.workbook.ecf.length, 25);
  assert.equal(issued.workbook.rfce.length, 4);

  const renumbering = issued.renumbering;
  const oldEncfs = template.ecf.map((row) => row.values['ENCF'] as string);
  assert.deepEqual(Object.keys(renumbering).sort(), [...oldEncfs].sort());
  const newEncfs = Object.values(renumbering);
  assert.equal(new Set(newEncfs).size, newEncfs.length, 'every document its own eNCF');
  for (const [old, renumbered] of Object.entries(renumbering)) {
    assert.match(renumbered, /^E\d{12}$/);
    assert.equal(encfTypeOf(renumbered), encfTypeOf(old), `${old} keeps its type`);
  }
  assert.equal(renumbering['E310000000001'], 'E310000000501');

  for (const [index, row] of issued.workbook.ecf.entries()) {
    const original = template.ecf[index];
    assert.ok(original !== undefined);
    const encf = renumbering[original.values['ENCF'] as string];
    assert.equal(row.values['ENCF'], encf);
    assert.equal(row.values['RNCEmisor'], RNC);
    assert.equal(row.values['CasoPrueba'], `${RNC}${encf}`);
    assert.equal(row.caseId, `${RNC}${encf}`);
    const reference = original.values['NCFModificado'];
    if (reference !== undefined)
      assert.equal(row.values['NCFModificado'], renumbering[reference] ?? reference, `row ${row.row}`);
  }
  // The E33 references the E32 of the set, the E34 an E31 and an E41: each follows its original.
  const note = issued.workbook.ecf.find((row) => row.values['TipoeCF'] === '33');
  assert.equal(note?.values['NCFModificado'], renumbering['E320000000006']);
  for (const [index, row] of issued.workbook.rfce.entries()) {
    const original = template.rfce[index];
    assert.ok(original !== undefined);
    assert.equal(
      row.values['ENCF'],
      renumbering[original.values['ENCF'] as string],
      'a summary follows its E32',
    );
    assert.equal(row.values['RNCEmisor'], RNC);
  }

  // Cell by cell, `#e` included: only the columns that name the taxpayer or a document changed,
  // and nothing changed type (text stays text).
  const before = await dumpCells(ECF_TEMPLATE);
  const after = await dumpCells(issued.content);
  const headers = await headersOf(ECF_TEMPLATE);
  assert.deepEqual([...after.keys()].sort(), [...before.keys()].sort());
  let unchanged = 0;
  const changedColumns = new Set<string>();
  for (const [key, cell] of before) {
    const issuedCell = after.get(key);
    assert.ok(issuedCell !== undefined);
    assert.equal(issuedCell.type, cell.type, key);
    if (issuedCell.text === cell.text) {
      unchanged += 1;
      continue;
    }
    const [sheet, , column] = key.split('!');
    const header = headers.get(`${sheet}!${column}`) ?? '';
    changedColumns.add(header);
    assert.ok(['RNCEmisor', 'ENCF', 'CasoPrueba', 'NCFModificado'].includes(header), `${key} (${header})`);
  }
  assert.deepEqual([...changedColumns].sort(), ['CasoPrueba', 'ENCF', 'NCFModificado', 'RNCEmisor']);
  assert.ok(unchanged > 100_000, `the template's ${unchanged} other cells (#e included) are kept`);
  assert.ok([...after.values()].filter((cell) => cell.text === '#e').length > 100_000);
});

test('the same renumbering issues the same rows; a legal name replaces RazonSocialEmisor only', async () => {
  const first = await issueEcfWorkbook({ template: ECF_TEMPLATE, rnc: RNC, nextEncf: sequenceFrom(900) });
  assert.ok(first.ok);
  const again = await issueEcfWorkbook({
    template: ECF_TEMPLATE,
    rnc: RNC,
    legalName: 'Ferretería Central & Hijos, SRL',
    renumbering: first.renumbering,
  });
  assert.ok(again.ok);
  assert.deepEqual(again.renumbering, first.renumbering);
  const reread = await readCertificationWorkbook({ content: again.content });
  assert.ok(reread.ok);
  assert.deepEqual(reread.workbook, again.workbook);
  for (const [index, row] of again.workbook.ecf.entries()) {
    const { RazonSocialEmisor: name, ...rest } = row.values;
    const firstValues: Readonly<Record<string, string>> = first.workbook.ecf[index]?.values ?? {};
    const { RazonSocialEmisor: _firstName, ...firstRest } = firstValues;
    assert.equal(name, 'Ferretería Central & Hijos, SRL');
    assert.deepEqual(rest, firstRest);
  }
  // The pure form gives the same rows without writing a file.
  assert.deepEqual(
    renumberEcfSet({
      workbook: template,
      rnc: RNC,
      legalName: 'Ferretería Central & Hijos, SRL',
      renumbering: first.renumbering,
    }),
    again.workbook,
  );
});

test('an issued approval set: the buyer, fresh eNCFs of the issuer, numeric cells kept numeric', async () => {
  const templateRead = await readCertificationWorkbook({ content: APPROVAL_TEMPLATE });
  assert.ok(templateRead.ok && templateRead.workbook.kind === 'approval_set');
  const issued = await issueApprovalWorkbook({
    template: APPROVAL_TEMPLATE,
    buyerRnc: RNC,
    nextEncf: sequenceFrom(7001),
  });
  assert.ok(issued.ok, JSON.stringify(!issued.ok && issued.errors));
  assert.equal(issued.workbook.buyerRnc, RNC);
  assert.equal(issued.workbook.approvals.length, 11);
  for (const [index, row] of issued.workbook.approvals.entries()) {
    const originalValues: Readonly<Record<string, string>> =
      templateRead.workbook.approvals[index]?.values ?? {};
    const { RNCComprador, eNCF, ...rest } = row.values;
    const { RNCComprador: _buyer, eNCF: oldEncf, ...originalRest } = originalValues;
    assert.equal(RNCComprador, RNC);
    assert.equal(row.values['RNCEmisor'], TAXAUTH_TEST_ISSUER_RNC);
    assert.equal(eNCF, issued.renumbering[oldEncf as string]);
    assert.equal(encfTypeOf(eNCF as string), encfTypeOf(oldEncf as string));
    assert.deepEqual(rest, originalRest, 'MontoTotal, Estado, dates as the template wrote them');
  }
  assert.equal(issued.workbook.approvals[0]?.values['MontoTotal'], '7080');
  const cells = await dumpCells(issued.content);
  assert.equal(cells.get('ACEECF_Generadas!2!5')?.type, ExcelJS.ValueType.Number, 'MontoTotal is a number');
  assert.equal(cells.get('ACEECF_Generadas!2!7')?.type, ExcelJS.ValueType.Number, 'Estado is a number');
  assert.equal(cells.get('ACEECF_Generadas!2!8'), undefined, 'DetalleMotivoRechazo blank');
});

test('an approval set of given rows replaces the template rows', async () => {
  const issued = await issueApprovalWorkbook({
    template: APPROVAL_TEMPLATE,
    buyerRnc: RNC,
    rows: [
      {
        Version: '1.0',
        RNCEmisor: TAXAUTH_TEST_ISSUER_RNC,
        eNCF: 'E310000000777',
        FechaEmision: '01-04-2026',
        MontoTotal: '4674.35',
        Estado: '2',
        DetalleMotivoRechazo: 'Mercancía dañada',
        FechaHoraAprobacionComercial: '02-04-2026 09:00:00',
      },
    ],
  });
  assert.ok(issued.ok, JSON.stringify(!issued.ok && issued.errors));
  assert.deepEqual(issued.workbook.approvals, [
    {
      row: 2,
      values: {
        Version: '1.0',
        RNCEmisor: TAXAUTH_TEST_ISSUER_RNC,
        eNCF: 'E310000000777',
        FechaEmision: '01-04-2026',
        MontoTotal: '4674.35',
        RNCComprador: RNC,
        Estado: '2',
        DetalleMotivoRechazo: 'Mercancía dañada',
        FechaHoraAprobacionComercial: '02-04-2026 09:00:00',
      },
    },
  ]);
});

test('a template that is not the right set, or not a workbook, is refused with the reader errors', async () => {
  const wrongKind = await issueEcfWorkbook({
    template: APPROVAL_TEMPLATE,
    rnc: RNC,
    nextEncf: sequenceFrom(1),
  });
  assert.ok(!wrongKind.ok);
  assert.equal(wrongKind.errors[0]?.code, WORKBOOK_ERROR_CODES.WORKBOOK_SHEET_MISSING);
  const corrupt = await issueApprovalWorkbook({
    template: new Uint8Array([1, 2, 3]),
    buyerRnc: RNC,
    nextEncf: sequenceFrom(1),
  });
  assert.ok(!corrupt.ok);
  assert.equal(corrupt.errors[0]?.code, WORKBOOK_ERROR_CODES.WORKBOOK_CORRUPT);
  assert.throws(() => formatEncf('31', 0), RangeError);
  assert.equal(formatEncf('47', 12), 'E470000000012');
});
