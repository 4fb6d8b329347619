import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { loadXsdValidators, OFFICIAL_XSD_DIRECTORY } from '@ecf/config';
import {
  createTestCertificate,
  loadCertificate,
  signEcfDocument,
  validateSubmission,
  verifyXmlSignature,
  type TReferencedDocument,
  type TSigningCertificate,
  type TXsdValidators,
} from '@ecf/fiscal-core';
import { readCertificationWorkbook } from './read-certification-workbook.ts';
import { workbookRowToEcf, workbookRowToRfce } from './workbook-to-ecf.ts';
import { WORKBOOK_ERROR_CODES, type TTaxauthTree, type TWorkbookRow } from './workbook-types.ts';
import { BEER_ROW } from './testing.ts';

const ECF_SET = readFileSync(new URL('../model/132641566-set-pruebas-ecf.xlsx', import.meta.url));
/** Sending day: after the set's issue dates; the expired sequences only warn. */
const NOW = new Date('2026-11-21T15:00:00Z');

let validators: TXsdValidators;
let certificate: TSigningCertificate;
let ecfRows: readonly TWorkbookRow[];
let rfceRows: readonly TWorkbookRow[];
let issuerRnc: string;

before(async () => {
  validators = await loadXsdValidators(OFFICIAL_XSD_DIRECTORY);
  const read = await readCertificationWorkbook({ content: ECF_SET });
  if (!read.ok || read.workbook.kind !== 'ecf_set') throw new Error(JSON.stringify(read));
  ({ issuerRnc, ecf: ecfRows, rfce: rfceRows } = read.workbook);
  const generated = createTestCertificate({ rnc: issuerRnc, commonName: 'Certificacion Prueba' });
  const loaded = loadCertificate({
    privateKeyPem: generated.privateKeyPem,
    certificatePem: generated.certificatePem,
  });
  if (!loaded.success) throw new Error(JSON.stringify(loaded.issues));
  certificate = loaded.data;
});
after(() => validators.dispose());

/** A note's original as the service would have stored it after the tax authority accepted it. */
function referencedDocumentOf(encf: string): TReferencedDocument | null {
  const original = ecfRows.find((row) => row.values['ENCF'] === encf);
  if (original === undefined) return null;
  return {
    status: 'accepted',
    buyerId: original.values['RNCComprador'] ?? original.values['IdentificadorExtranjero'] ?? null,
    issueDate: original.values['FechaEmision'] ?? '',
    totalAmount: original.values['MontoTotal'] ?? '0',
    creditNotesTotal: '0',
  };
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };
const HEADER_ELEMENTS: Record<string, string> = {
  ENCF: 'eNCF',
  MontosubRecargo: 'MontoSubRecargo',
  NumeroLineaDoR: 'NumeroLinea',
};

/** `Element=text` of every cell of a row, as the signed XML must carry it. */
function expectedLeaves(row: TWorkbookRow): string[] {
  return Object.entries(row.values)
    .filter(([column]) => column !== 'CasoPrueba')
    .map(([column, value]) => {
      const base = column.trimEnd().replace(/\[.*$/, '');
      return `${HEADER_ELEMENTS[base] ?? base}=${value.replace(/[&<>]/g, (character) => ESCAPES[character] ?? character)}`;
    })
    .sort();
}

/** `Element=text` of every leaf of the signed document but the signature and its time. */
function leavesOf(xml: string): string[] {
  const body = xml.replace(/<Signature[\s\S]*<\/Signature>/, '');
  return [...body.matchAll(/<([A-Za-z0-9]+)>([^<]*)<\/\1>/g)]
    .map((match) => `${match[1]}=${match[2]}`)
    .filter((leaf) => !leaf.startsWith('FechaHoraFirma='))
    .sort();
}

test('every ECF row: validated by fiscal-core, signed, accepted by the official XSD, every field as written', async () => {
  assert.equal(ecfRows.length, 25);
  const failures: string[] = [];
  for (const row of ecfRows) {
    const label = `row ${row.row} ${row.values['ENCF']}`;
    const mapped = workbookRowToEcf(row);
    if (!mapped.ok) {
      failures.push(`${label}: ${JSON.stringify(mapped.errors)}`);
      continue;
    }
    const validated = await validateSubmission(JSON.stringify(mapped.document), {
      now: NOW,
      account: {
        rnc: issuerRnc,
        legalName: row.values['RazonSocialEmisor'] ?? '',
        deferredSendAuthorized: false,
      },
      lookupReferencedDocument: referencedDocumentOf,
    });
    if (!validated.success) {
      failures.push(
        `${label}: ${JSON.stringify(validated.errors.map(({ path, code }) => ({ path, code })))}`,
      );
      continue;
    }
    const squaring = validated.data.warnings.filter(
      (warning) => warning.code === 'SQUARING_ABOVE_TAXAUTH_TOLERANCE',
    );
    if (squaring.length > 0) failures.push(`${label}: squaring ${JSON.stringify(squaring)}`);
    const signed = signEcfDocument(validated.data.document, certificate, NOW);
    if (!signed.success) {
      failures.push(`${label}: ${JSON.stringify(signed.issues)}`);
      continue;
    }
    const checked = validators.validateXml(signed.data.xml);
    if (!checked.success) failures.push(`${label}: XSD ${JSON.stringify(checked.issues)}`);
    else assert.equal(checked.data.kind, `ECF${row.values['TipoeCF']}`);
    assert.ok(verifyXmlSignature(signed.data.xml).valid, label);
    // The tax authority compares every field with the workbook literally: nothing added, dropped or reformatted.
    assert.deepEqual(leavesOf(signed.data.xml), expectedLeaves(row), label);
  }
  assert.deepEqual(failures, []);
});

test('the tax authority beer row (006 + 023 on one item, the specific amount on 006 only): validated without a warning, signed, every field as written', async () => {
  // The model set has no additional tax; its first E31 with the beer row's cells, as the tax authority writes them.
  const base = ecfRows.find((row) => row.values['TipoeCF'] === '31');
  assert.ok(base);
  const values: Record<string, string> = Object.fromEntries(
    Object.entries(base.values).filter(
      ([column]) => !column.includes('[') || column.startsWith('TelefonoEmisor['),
    ),
  );
  Object.assign(values, { FechaVencimientoSecuencia: '31-12-2026', FechaEmision: '01-06-2025', ...BEER_ROW });
  const row: TWorkbookRow = { ...base, values };
  const mapped = workbookRowToEcf(row);
  assert.ok(mapped.ok, JSON.stringify(!mapped.ok && mapped.errors));
  const now = new Date('2025-06-02T15:00:00Z');
  const validated = await validateSubmission(JSON.stringify(mapped.document), {
    now,
    account: { rnc: issuerRnc, legalName: values['RazonSocialEmisor'] ?? '', deferredSendAuthorized: false },
  });
  assert.ok(validated.success, JSON.stringify(!validated.success && validated.errors));
  assert.deepEqual(validated.data.warnings, []);
  const signed = signEcfDocument(validated.data.document, certificate, now);
  assert.ok(signed.success);
  assert.ok(validators.validateXml(signed.data.xml).success);
  assert.deepEqual(leavesOf(signed.data.xml), expectedLeaves(row));
});

test('an ECF row nests by the XSD of its type: indices, nested indices, header quirks', () => {
  const mapped = workbookRowToEcf({
    sheet: 'ECF',
    row: 9,
    caseId: null,
    values: {
      MontoTotal: '118.00',
      TipoeCF: '31',
      ENCF: 'E310000000001',
      Version: '1.0',
      'TelefonoEmisor[2]': '809-000-0002',
      'TelefonoEmisor[1]': '809-000-0001',
      'FormaPago[1]': '1',
      'MontoPago[1]': '118.00',
      'NumeroContenedor ': 'C-1',
      'TipoImpuesto[1]': '006',
      'TasaImpuestoAdicional[1]': '632.58',
      'NombreItem[3]': 'Tercero',
      'NombreItem[1]': 'Primero',
      'TipoCodigo[1][2]': 'EAN',
      'CodigoItem[1][2]': '0001',
      'TipoImpuesto[1][1]': '006',
      'MontosubRecargo[1][1]': '5.00',
      'NumeroLineaDoR[1]': '1',
      'NumeroLinea[1]': '1',
      DescripcionSubtotal: 'Todo',
      'SubtotalOtrosImpuesto[1][1]': '1.00',
    },
  });
  assert.ok(mapped.ok, JSON.stringify(!mapped.ok && mapped.errors));
  const ecf = mapped.document['ECF'] as TTaxauthTree;
  const header = ecf['Encabezado'] as TTaxauthTree;
  assert.deepEqual(Object.keys(ecf), [
    'Encabezado',
    'DetallesItems',
    'Subtotales',
    'DescuentosORecargos',
    'Paginacion',
  ]);
  assert.deepEqual(Object.keys(header), [
    'Version',
    'IdDoc',
    'Emisor',
    'InformacionesAdicionales',
    'Totales',
  ]);
  assert.deepEqual(header['IdDoc'], {
    TipoeCF: '31',
    eNCF: 'E310000000001',
    TablaFormasPago: { FormaDePago: [{ FormaPago: '1', MontoPago: '118.00' }] },
  });
  assert.deepEqual(header['Emisor'], {
    TablaTelefonoEmisor: { TelefonoEmisor: ['809-000-0001', '809-000-0002'] },
  });
  assert.deepEqual(header['InformacionesAdicionales'], { NumeroContenedor: 'C-1' });
  assert.deepEqual(header['Totales'], {
    ImpuestosAdicionales: { ImpuestoAdicional: [{ TipoImpuesto: '006', TasaImpuestoAdicional: '632.58' }] },
    MontoTotal: '118.00',
  });
  assert.deepEqual(ecf['DetallesItems'], {
    Item: [
      {
        NumeroLinea: '1',
        TablaCodigosItem: { CodigosItem: [{ TipoCodigo: 'EAN', CodigoItem: '0001' }] },
        NombreItem: 'Primero',
        TablaSubRecargo: { SubRecargo: [{ MontoSubRecargo: '5.00' }] },
        TablaImpuestoAdicional: { ImpuestoAdicional: [{ TipoImpuesto: '006' }] },
      },
      { NombreItem: 'Tercero' },
    ],
  });
  assert.deepEqual(ecf['Subtotales'], { Subtotal: [{ DescripcionSubtotal: 'Todo' }] });
  assert.deepEqual(ecf['DescuentosORecargos'], { DescuentoORecargo: [{ NumeroLinea: '1' }] });
  assert.deepEqual(ecf['Paginacion'], {
    Pagina: [{ SubtotalImpuestoAdicional: { SubtotalOtrosImpuesto: '1.00' } }],
  });
});

test('an unknown column, a column the type lacks and an unknown type are errors naming sheet, row and column', () => {
  const base = { sheet: 'ECF' as const, row: 12, caseId: null };
  const unknown = workbookRowToEcf({
    ...base,
    values: { TipoeCF: '31', ColumnaInventada: 'x', 'NombreItem[1][1]': 'y' },
  });
  assert.ok(!unknown.ok);
  assert.deepEqual(
    unknown.errors.map(({ sheet, row, column, code }) => ({ sheet, row, column, code })),
    [
      {
        sheet: 'ECF',
        row: 12,
        column: 'ColumnaInventada',
        code: WORKBOOK_ERROR_CODES.WORKBOOK_COLUMN_UNKNOWN,
      },
      {
        sheet: 'ECF',
        row: 12,
        column: 'NombreItem[1][1]',
        code: WORKBOOK_ERROR_CODES.WORKBOOK_COLUMN_UNKNOWN,
      },
    ],
  );
  // E43 (minor expenses) has no buyer.
  const notInType = workbookRowToEcf({ ...base, values: { TipoeCF: '43', RNCComprador: '131880681' } });
  assert.ok(!notInType.ok);
  assert.equal(notInType.errors[0]?.code, WORKBOOK_ERROR_CODES.WORKBOOK_COLUMN_NOT_IN_TYPE);
  assert.equal(notInType.errors[0]?.column, 'RNCComprador');
  const badType = workbookRowToEcf({ ...base, values: { TipoeCF: '99' } });
  assert.ok(!badType.ok);
  assert.deepEqual(
    badType.errors.map(({ row, column, code }) => ({ row, column, code })),
    [{ row: 12, column: 'TipoeCF', code: WORKBOOK_ERROR_CODES.WORKBOOK_TYPE_INVALID }],
  );
});

test('every RFCE row → the RFCE tree, in XSD order, every value as written', () => {
  assert.equal(rfceRows.length, 4);
  for (const row of rfceRows) {
    const mapped = workbookRowToRfce(row);
    assert.ok(mapped.ok, JSON.stringify(!mapped.ok && mapped.errors));
    const rfce = mapped.document['RFCE'] as TTaxauthTree;
    const header = rfce['Encabezado'] as TTaxauthTree;
    assert.deepEqual(Object.keys(header), ['Version', 'IdDoc', 'Emisor', 'Comprador', 'Totales']);
    const idDoc = header['IdDoc'] as TTaxauthTree;
    assert.equal(idDoc['eNCF'], row.values['ENCF']);
    assert.equal((header['Totales'] as TTaxauthTree)['MontoTotal'], row.values['MontoTotal']);
    const leaves = JSON.stringify(mapped.document).match(/"[^"]+":"[^"]*"/g)?.length;
    assert.equal(leaves, Object.keys(row.values).length - 1, 'every cell but CasoPrueba is one leaf');
  }
});
