import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { strFromU8, unzipSync } from 'fflate';
import { artifactData, seedDocument, seedInbound, seedTenant, seedUser, type TDatabase } from '@ecf/db';
import { openTestDatabase } from '@ecf/db/testing';
import { AppError } from '../shared/errors.ts';
import { appendAuditEntryRow } from '../persistence/index.ts';
import { purgeExpiredRecords } from '../maintenance/purge-expired-records.ts';
import { createExport } from './create-export.ts';
import { getExport, getExportFile } from './get-export.ts';
import { guardFormula, writeCsv, writeXlsx, type TExportTable } from './export-files.ts';

let database: TDatabase;
let close: () => Promise<void>;
before(async () => {
  const context = await openTestDatabase();
  database = context.database;
  close = context.close;
});
after(async () => {
  await close();
});

const NOW = new Date('2026-11-27T15:00:00Z');
// Small exports are built in the request: these tests never enqueue.
const noQueue = async () => {
  throw new Error('a small export must not be queued');
};

/** An e-CF XML with the parts an export reads (what readEcfXml gives back of a signed one). */
function ecfXml(input: {
  encf: string;
  issuerRnc?: string;
  issuerName?: string;
  buyerRnc?: string;
  buyerName?: string;
  taxable: string;
  exempt?: string;
  itbis: string;
  total: string;
}): string {
  const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  return (
    `<?xml version="1.0" encoding="UTF-8"?><ECF><Encabezado><Version>1.0</Version>` +
    `<IdDoc><TipoeCF>${input.encf.slice(1, 3)}</TipoeCF><eNCF>${input.encf}</eNCF></IdDoc>` +
    `<Emisor><RNCEmisor>${input.issuerRnc ?? '131880681'}</RNCEmisor><RazonSocialEmisor>${escape(input.issuerName ?? 'Emisor SRL')}</RazonSocialEmisor></Emisor>` +
    (input.buyerRnc
      ? `<Comprador><RNCComprador>${input.buyerRnc}</RNCComprador><RazonSocialComprador>${escape(input.buyerName ?? '')}</RazonSocialComprador></Comprador>`
      : '') +
    `<Totales><MontoGravadoTotal>${input.taxable}</MontoGravadoTotal>` +
    (input.exempt ? `<MontoExento>${input.exempt}</MontoExento>` : '') +
    `<TotalITBIS>${input.itbis}</TotalITBIS><MontoTotal>${input.total}</MontoTotal></Totales></Encabezado></ECF>`
  );
}

/** The CSV's text with its BOM kept (TextDecoder drops it by default). */
const csvText = (bytes: Uint8Array) => new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);

let sequence = 0;
/** An issued document of `issueDate` with its signed XML. */
async function seedSigned(
  tenantId: string,
  issueDate: string,
  amounts: { taxable: string; exempt?: string; itbis: string; total: string },
  buyer: { rnc: string; name: string } = { rnc: '101672919', name: 'Ferretería Los Pinos SRL' },
) {
  sequence += 1;
  const encf = `E31${String(sequence).padStart(10, '0')}`;
  const document = await seedDocument(database, {
    tenantId,
    encf,
    status: 'accepted',
    totalAmount: amounts.total,
  });
  await database.document.update({
    where: { id: document.id },
    data: {
      issueDate: new Date(issueDate),
      buyerRnc: buyer.rnc,
      submittedAt: new Date(`${issueDate}T16:00:00Z`),
    },
  });
  await database.artifact.create({
    data: artifactData({
      tenantId,
      documentId: document.id,
      kind: 'signed_xml',
      contentType: 'application/xml',
      content: ecfXml({ encf, buyerRnc: buyer.rnc, buyerName: buyer.name, ...amounts }),
    }),
  });
  return encf;
}

async function owner() {
  const tenant = await seedTenant(database);
  const user = await seedUser(database, { passwordHash: '$argon2id$v=19$m=19456,t=2,p=1$x$y' });
  return { tenant, user };
}

/** A CSV's lines as cells (RFC 4180, as the test writes no newline inside a field). */
function csvRows(bytes: Uint8Array): string[][] {
  assert.deepEqual([...bytes.subarray(0, 3)], [0xef, 0xbb, 0xbf], 'UTF-8 BOM first');
  const text = csvText(bytes);
  assert.ok(text.startsWith('\uFEFF'), 'UTF-8 BOM first');
  const rows: string[][] = [];
  for (const line of text
    .slice(1)
    .split('\r\n')
    .filter((l) => l !== '')) {
    const cells: string[] = [];
    let cell = '';
    let quoted = false;
    for (let index = 0; index < line.length; index += 1) {
      const character = line[index];
      if (quoted) {
        if (character === '"' && line[index + 1] === '"') {
          cell += '"';
          index += 1;
        } else if (character === '"') quoted = false;
        else cell += character;
      } else if (character === '"') quoted = true;
      else if (character === ',') {
        cells.push(cell);
        cell = '';
      } else cell += character;
    }
    cells.push(cell);
    rows.push(cells);
  }
  return rows;
}

test('issued documents of a month: one row each, amounts from the signed XML, totals exact to the cent, CSV quoting and formula guard', async () => {
  const { tenant, user } = await owner();
  // 0.10 + 0.20 is 0.30000000000000004 in floating point: the totals must say 0.30.
  await seedSigned(
    tenant.id,
    '2026-10-01',
    { taxable: '0.10', itbis: '0.02', total: '0.12' },
    { rnc: '101672919', name: 'Pérez, "La Esquina" & Co.' },
  );
  await seedSigned(
    tenant.id,
    '2026-10-31',
    { taxable: '0.20', exempt: '100.00', itbis: '0.04', total: '100.24' },
    { rnc: '131880681', name: '=HYPERLINK("http://x","clic")' },
  );
  await seedSigned(
    tenant.id,
    '2026-10-15',
    { taxable: '4500.00', itbis: '810.00', total: '5310.00' },
    { rnc: '40212345678', name: '+Comercial Ñandú' },
  );
  // Outside the month: the day before and the day after.
  await seedSigned(tenant.id, '2026-09-30', { taxable: '1.00', itbis: '0.18', total: '1.18' });
  await seedSigned(tenant.id, '2026-11-01', { taxable: '1.00', itbis: '0.18', total: '1.18' });
  // Another tenant's document of the same month never appears.
  const other = await seedTenant(database);
  await seedSigned(other.id, '2026-10-10', { taxable: '9.00', itbis: '1.62', total: '10.62' });

  const started = await createExport({
    database,
    enqueue: noQueue,
    tenantId: tenant.id,
    userId: user.id,
    request: { kind: 'issued', environment: 'TesteCF', format: 'csv', month: '2026-10' },
    ip: '203.0.113.9',
    now: () => NOW,
  });
  assert.equal(started.status, 'ready');
  assert.equal(started.rows, 3);
  const file = await getExportFile({
    database,
    tenantId: tenant.id,
    userId: user.id,
    exportId: started.exportId,
    now: NOW,
  });
  assert.equal(file.fileName, 'emitidos-TesteCF-2026-10.csv');
  const rows = csvRows(file.content);
  assert.deepEqual(rows[0], [
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
  // Newest submission first, as the list shows them.
  assert.deepEqual(
    rows.slice(1, 4).map((row) => [row[2], row[3], row[4], row[5], row[6], row[7], row[8], row[9]]),
    [
      [
        '2026-10-31',
        '131880681',
        `'=HYPERLINK("http://x","clic")`,
        'Aceptado',
        '0.20',
        '100.00',
        '0.04',
        '100.24',
      ],
      ['2026-10-15', '40212345678', "'+Comercial Ñandú", 'Aceptado', '4500.00', '0.00', '810.00', '5310.00'],
      ['2026-10-01', '101672919', 'Pérez, "La Esquina" & Co.', 'Aceptado', '0.10', '0.00', '0.02', '0.12'],
    ],
  );
  assert.equal(rows[1]?.[1], 'E31 · Crédito fiscal');
  assert.deepEqual(rows[4], [
    'Totales',
    '3 documentos',
    '',
    '',
    '',
    '',
    '4500.30',
    '100.00',
    '810.06',
    '5410.36',
  ]);
  assert.equal(rows.length, 5);
  // The raw bytes: the quoted field doubles its quotes; lines end in CRLF.
  const text = csvText(file.content);
  assert.ok(text.includes(`"Pérez, ""La Esquina"" & Co."`));
  assert.ok(text.includes(`"'=HYPERLINK(""http://x"",""clic"")"`));
  assert.ok(text.endsWith('\r\n'));

  // The export is in the audit log with what was asked, in its own transaction.
  const entry = await database.portalAuditEntry.findFirstOrThrow({
    where: { tenantId: tenant.id, action: 'export.created' },
  });
  assert.equal(entry.targetId, started.exportId);
  assert.equal(entry.actorUserId, user.id);
  assert.deepEqual((entry.data as { scope: unknown }).scope, {
    issueDateFrom: '2026-10-01',
    issueDateTo: '2026-10-31',
  });
  assert.equal((entry.data as { rows: number }).rows, 3);
});

test('the list filter instead of a month: the same filters as the list (status, search), xlsx with numeric cells written from the decimal text', async () => {
  const { tenant, user } = await owner();
  await seedSigned(
    tenant.id,
    '2026-08-03',
    { taxable: '1000.10', itbis: '180.02', total: '1180.12' },
    { rnc: '101672919', name: 'Uno' },
  );
  await seedSigned(
    tenant.id,
    '2026-08-04',
    { taxable: '2000.20', itbis: '360.04', total: '2360.24' },
    { rnc: '101672919', name: 'Dos' },
  );
  await seedSigned(
    tenant.id,
    '2026-08-05',
    { taxable: '5.00', itbis: '0.90', total: '5.90' },
    { rnc: '131880681', name: 'Otro comprador' },
  );
  const started = await createExport({
    database,
    enqueue: noQueue,
    tenantId: tenant.id,
    userId: user.id,
    request: {
      kind: 'issued',
      environment: 'TesteCF',
      format: 'xlsx',
      query: { status: 'accepted' },
      search: { q: '101672919' },
    },
    now: () => NOW,
  });
  assert.equal(started.rows, 2);
  const file = await getExportFile({
    database,
    tenantId: tenant.id,
    userId: user.id,
    exportId: started.exportId,
    now: NOW,
  });
  assert.equal(file.fileName, 'emitidos-TesteCF-filtro.xlsx');
  const parts = unzipSync(file.content);
  const sheet = strFromU8(parts['xl/worksheets/sheet1.xml'] ?? new Uint8Array());
  assert.ok(parts['[Content_Types].xml'] && parts['xl/workbook.xml'] && parts['xl/styles.xml']);
  // Money: numeric cells with the two-decimal format, the value exactly the decimal text.
  assert.match(sheet, /<c r="G2" s="1"><v>2000\.20<\/v><\/c>/);
  assert.match(sheet, /<c r="J3" s="1"><v>1180\.12<\/v><\/c>/);
  // Totals row (bold): 1000.10 + 2000.20 = 3000.30 exactly.
  assert.match(sheet, /<c r="A4" t="inlineStr" s="2"><is><t xml:space="preserve">Totales<\/t><\/is><\/c>/);
  assert.match(sheet, /<c r="G4" s="3"><v>3000\.30<\/v><\/c>/);
  assert.match(sheet, /<c r="J4" s="3"><v>3540\.36<\/v><\/c>/);
  assert.ok(!sheet.includes('Otro comprador'));
});

test('received e-CF of a month: reception month boundaries in Dominican time (UTC-4), issuer as counterpart, amounts from the XML', async () => {
  const { tenant, user } = await owner();
  const receive = (encf: string, receivedAt: string, total: string) =>
    seedInbound(database, {
      tenantId: tenant.id,
      encf,
      ecfType: 31,
      issuerRnc: '131880681',
      issuerName: 'Suplidora del Cibao SRL',
      issueDate: '2026-09-28',
      totalAmount: total,
      receivedAt: new Date(receivedAt),
      xml: ecfXml({
        encf,
        issuerName: 'Suplidora del Cibao SRL',
        taxable: total === '118.00' ? '100.00' : '10.00',
        itbis: total === '118.00' ? '18.00' : '1.80',
        total,
      }),
    });
  // 2026-10-01T03:59Z is still September 30 in Santo Domingo; 2026-11-01T03:59Z still October 31.
  await receive('E310000000101', '2026-10-01T03:59:59.999Z', '11.80');
  await receive('E310000000102', '2026-10-01T04:00:00.000Z', '118.00');
  await receive('E310000000103', '2026-11-01T03:59:59.999Z', '118.00');
  await receive('E310000000104', '2026-11-01T04:00:00.000Z', '11.80');
  const started = await createExport({
    database,
    enqueue: noQueue,
    tenantId: tenant.id,
    userId: user.id,
    request: { kind: 'received', environment: 'TesteCF', format: 'csv', month: '2026-10' },
    now: () => NOW,
  });
  const file = await getExportFile({
    database,
    tenantId: tenant.id,
    userId: user.id,
    exportId: started.exportId,
    now: NOW,
  });
  const rows = csvRows(file.content);
  assert.deepEqual(
    rows.slice(1, -1).map((row) => [row[0], row[3], row[4], row[5], row[6], row[8], row[9], row[10]]),
    [
      [
        'E310000000103',
        '131880681',
        'Suplidora del Cibao SRL',
        'Pendiente de aprobación comercial',
        '100.00',
        '18.00',
        '118.00',
        '2026-10-31 23:59',
      ],
      [
        'E310000000102',
        '131880681',
        'Suplidora del Cibao SRL',
        'Pendiente de aprobación comercial',
        '100.00',
        '18.00',
        '118.00',
        '2026-10-01 00:00',
      ],
    ],
  );
  assert.deepEqual(rows.at(-1)?.slice(0, 2), ['Totales', '2 documentos']);
  assert.deepEqual(rows.at(-1)?.slice(6, 10), ['200.00', '0.00', '36.00', '236.00']);
});

test('the audit log of a month (Dominican time) and one action; exports are their owner’s alone and expire', async () => {
  const { tenant, user } = await owner();
  const entry = (action: string, at: string, data: Record<string, unknown> = {}) =>
    appendAuditEntryRow(database, {
      tenantId: tenant.id,
      actorUserId: user.id,
      action,
      data,
      ip: '198.51.100.7',
      at: new Date(at),
    });
  await entry('member.invited', '2026-10-01T03:59:00Z', { email: 'antes@example.com' });
  await entry('member.invited', '2026-10-01T04:00:00Z', {
    email: '=cmd|calc@example.com',
    role: 'accountant',
  });
  await entry('api_key.created', '2026-10-20T12:00:00Z', { prefix: 'ecf_test_ab' });
  await entry('member.invited', '2026-11-01T04:00:00Z', { email: 'despues@example.com' });
  const started = await createExport({
    database,
    enqueue: noQueue,
    tenantId: tenant.id,
    userId: user.id,
    request: { kind: 'audit', format: 'csv', month: '2026-10', action: 'member.invited' },
    now: () => NOW,
  });
  assert.equal(started.rows, 1);
  const file = await getExportFile({
    database,
    tenantId: tenant.id,
    userId: user.id,
    exportId: started.exportId,
    now: NOW,
  });
  assert.equal(file.fileName, 'auditoria-2026-10.csv');
  const rows = csvRows(file.content);
  assert.equal(rows.length, 2, 'header and one entry; no totals row');
  assert.equal(rows[1]?.[0], '2026-10-01 00:00');
  assert.equal(rows[1]?.[3], 'Invitó a un miembro');
  // jsonb keeps its own key order.
  assert.equal(rows[1]?.[5], 'role: accountant · email: =cmd|calc@example.com');
  assert.equal(rows[1]?.[6], '198.51.100.7');

  // Another user of the same tenant, another tenant, an unknown id: the same 404. Expired: 404 too.
  const stranger = await seedUser(database, { passwordHash: '$argon2id$v=19$m=19456,t=2,p=1$x$y' });
  for (const scope of [
    { tenantId: tenant.id, userId: stranger.id, exportId: started.exportId },
    { tenantId: (await seedTenant(database)).id, userId: user.id, exportId: started.exportId },
    { tenantId: tenant.id, userId: user.id, exportId: randomUUID() },
    {
      tenantId: tenant.id,
      userId: user.id,
      exportId: started.exportId,
      now: new Date(NOW.getTime() + 8 * 86_400_000),
    },
  ])
    await assert.rejects(
      getExport({ database, now: NOW, ...scope }),
      (error: unknown) => error instanceof AppError && error.code === 'NOT_FOUND',
    );
  const view = await getExport({
    database,
    tenantId: tenant.id,
    userId: user.id,
    exportId: started.exportId,
    now: NOW,
  });
  assert.equal(view.status, 'ready');
  assert.equal(view.percent, 100);
  assert.equal(view.expiresAt, new Date(NOW.getTime() + 7 * 86_400_000).toISOString());
  // The purge job deletes it (and its file) once expired.
  assert.equal((await purgeExpiredRecords({ database, before: NOW })).portalExports, 0);
  const purged = await purgeExpiredRecords({ database, before: new Date(NOW.getTime() + 8 * 86_400_000) });
  assert.ok(purged.portalExports >= 1);
  assert.equal(await database.portalExport.count({ where: { id: started.exportId } }), 0);
});

test('the writers: formula guard on text only, RFC 4180 quoting, XML-unsafe characters dropped from the sheet', () => {
  assert.equal(guardFormula('=1+1'), "'=1+1");
  assert.equal(guardFormula('-5'), "'-5");
  assert.equal(guardFormula('@SUM(A1)'), "'@SUM(A1)");
  assert.equal(guardFormula('\tx'), "'\tx");
  assert.equal(guardFormula('Normal'), 'Normal');
  const table: TExportTable = {
    sheetName: 'Prueba',
    columns: [
      { header: 'Texto', kind: 'text' },
      { header: 'Monto', kind: 'money' },
    ],
    rows: [
      ['línea 1\nlínea 2', '-10.50'],
      ['control\u0001<b>', null],
    ],
    totals: ['Totales', '-10.50'],
  };
  const csv = csvText(writeCsv(table));
  // A negative amount is a number, not a formula: never prefixed.
  assert.equal(
    csv,
    '\uFEFFTexto,Monto\r\n"línea 1\nlínea 2",-10.50\r\ncontrol\u0001<b>,\r\nTotales,-10.50\r\n',
  );
  const sheet = strFromU8(unzipSync(writeXlsx(table))['xl/worksheets/sheet1.xml'] ?? new Uint8Array());
  assert.ok(sheet.includes('control&lt;b&gt;'));
  assert.ok(!sheet.includes('\u0001'));
  assert.ok(sheet.includes('<v>-10.50</v>'));
});
