// The taxpayer registry: the file's layout, a generated 800,000-row file loaded with COPY (timed),
// the atomic replacement, and rule 18's warnings from it.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { createDatabaseClient } from '@ecf/db';
import { openTestDatabase } from '@ecf/db/testing';
import { importTaxpayerRegistry, lookUpTaxpayer, parseRegistryLine } from './index.ts';

let context: Awaited<ReturnType<typeof openTestDatabase>>;
const directory = mkdtempSync(path.join(tmpdir(), 'registry-'));
before(async () => {
  context = await openTestDatabase();
});
after(async () => {
  await context.close();
  rmSync(directory, { recursive: true, force: true });
});

test('the file layout: RNC or cédula | name | trade name | activity | … | status (10th field, or the last)', () => {
  assert.deepEqual(
    parseRegistryLine(
      '101000001|FERRETERIA CENTRAL SRL|FERRETERIA CENTRAL|VENTA AL POR MENOR|||||01/02/1990|ACTIVO|NORMAL',
    ),
    {
      rnc: '101000001',
      name: 'FERRETERIA CENTRAL SRL',
      tradeName: 'FERRETERIA CENTRAL',
      activity: 'VENTA AL POR MENOR',
      status: 'ACTIVO',
    },
  );
  assert.deepEqual(parseRegistryLine('001-1234567-8|JUAN PEREZ|||SUSPENDIDO'), {
    rnc: '00112345678',
    name: 'JUAN PEREZ',
    tradeName: null,
    activity: null,
    status: 'SUSPENDIDO',
  });
  assert.equal(parseRegistryLine('RNC|RAZON SOCIAL|NOMBRE COMERCIAL'), null, 'a header');
  assert.equal(parseRegistryLine(''), null);
  assert.equal(parseRegistryLine('12345|SHORT|X|Y|||||01/01/2000|ACTIVO|NORMAL'), null);
});

/** Writes `rows` taxpayers in the tax authority's layout (ISO-8859-1, CRLF, a tab and a backslash in some names). */
async function writeRegistryFile(file: string, rows: number, status: (index: number) => string) {
  const stream = createWriteStream(file, { encoding: 'latin1' });
  let chunk = '';
  for (let index = 0; index < rows; index += 1) {
    const rnc = String(100_000_000 + index);
    chunk += `${rnc}|EMPRESA ${index} S\\R\tL Ñ|COMERCIAL ${index}|VENTA DE ARTÍCULOS|||||01/01/2000|${status(index)}|NORMAL\r\n`;
    if (chunk.length > 1_000_000) {
      if (!stream.write(chunk)) await new Promise<void>((resolve) => stream.once('drain', () => resolve()));
      chunk = '';
    }
  }
  stream.end(chunk);
  await new Promise<void>((resolve) => stream.once('finish', () => resolve()));
}

test('800,000 taxpayers loaded with COPY in seconds; a second load replaces the first atomically', async () => {
  const file = path.join(directory, 'DGII_RNC.TXT');
  await writeRegistryFile(file, 800_000, (index) => (index % 10 === 0 ? 'SUSPENDIDO' : 'ACTIVO'));
  assert.deepEqual(await lookUpTaxpayer({ database: context.database, rnc: '100000001' }), { loaded: false });
  const report = await importTaxpayerRegistry({ database: context.database, source: file });
  console.log(
    `registry import: ${report.rows} rows in ${report.durationMs} ms (${Math.round(report.rows / (report.durationMs / 1000))} rows/s)`,
  );
  assert.equal(report.rows, 800_000);
  assert.equal(report.skipped, 0);
  const active = await lookUpTaxpayer({ database: context.database, rnc: '100000001' });
  assert.equal(active.loaded && active.taxpayer?.status, 'ACTIVO');
  assert.equal(
    active.loaded && active.taxpayer?.name,
    'EMPRESA 1 S\\R\tL Ñ',
    'latin1 decoded, COPY escapes kept',
  );
  const suspended = await lookUpTaxpayer({ database: context.database, rnc: '100000010' });
  assert.equal(suspended.loaded && suspended.taxpayer?.status, 'SUSPENDIDO');

  // A smaller file replaces it whole: readers see the old registry until the switch, then only the new.
  const second = path.join(directory, 'second.txt');
  await writeRegistryFile(second, 1000, () => 'ACTIVO');
  const replaced = await importTaxpayerRegistry({ database: context.database, source: second });
  assert.equal(replaced.replacedRows, 800_000);
  const gone = await lookUpTaxpayer({ database: context.database, rnc: '100500000' });
  assert.deepEqual(gone, { loaded: true, taxpayer: null });
  const count = await context.database.taxpayerRegistryEntry.count();
  assert.equal(count, 1000);
});

test('a failed load leaves the previous registry current', async () => {
  const broken = path.join(directory, 'missing-file.txt');
  await assert.rejects(importTaxpayerRegistry({ database: context.database, source: broken }));
  const still = await lookUpTaxpayer({ database: context.database, rnc: '100000001' });
  assert.equal(still.loaded && still.taxpayer?.status, 'ACTIVO');
  assert.equal(await context.database.taxpayerRegistryImport.count(), 1);
});

test('a registry another process loaded a moment ago is seen at once: no refusal on a stale read', async () => {
  // Two clients of the same database, as the admin CLI and the API are two processes.
  const api = createDatabaseClient({ databaseUrl: context.url, maxConnections: 1 });
  try {
    const before = await lookUpTaxpayer({ database: api, rnc: '100000001' });
    assert.equal(
      before.loaded && before.taxpayer?.status,
      'ACTIVO',
      'the API has read (and keeps) the current import',
    );
    await importTaxpayerRegistry({
      database: context.database,
      source: Readable.from([
        Buffer.from('133000999|NUEVA EMPRESA SRL|NUEVA|VENTA|||||01/01/2020|ACTIVO|NORMAL\n'),
      ]),
      fileName: 'nuevo.txt',
    });
    const after = await lookUpTaxpayer({ database: api, rnc: '133000999' });
    assert.equal(
      after.loaded && after.taxpayer?.name,
      'NUEVA EMPRESA SRL',
      'found within the 10 s the API trusts its read',
    );
    const gone = await lookUpTaxpayer({ database: api, rnc: '100000001' });
    assert.equal(gone.loaded && gone.taxpayer, null, 'the replaced registry no longer has it');
  } finally {
    await api.$disconnect();
  }
});
