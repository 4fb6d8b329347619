import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { orderCertificationSends } from './order-certification-sends.ts';
import { readCertificationWorkbook } from './read-certification-workbook.ts';
import type { TWorkbookRow } from './workbook-types.ts';

const ECF_SET = readFileSync(new URL('../model/132641566-set-pruebas-ecf.xlsx', import.meta.url));

function rowOf(row: number, type: string, encf: string, reference?: string): TWorkbookRow {
  return {
    sheet: 'ECF',
    row,
    caseId: null,
    values: { TipoeCF: type, ENCF: encf, ...(reference === undefined ? {} : { NCFModificado: reference }) },
  };
}

const encfs = (rows: readonly TWorkbookRow[]): Array<string | undefined> =>
  rows.map((row) => row.values['ENCF']);

/** Every note comes after the row of the document it references, when that row is in the set. */
function assertNotesFollowOriginals(rows: readonly TWorkbookRow[]): void {
  const positions = new Map(rows.map((row, position) => [row.values['ENCF'], position]));
  for (const [position, row] of rows.entries()) {
    const reference = row.values['NCFModificado'];
    if (reference === undefined || !positions.has(reference)) continue;
    assert.ok((positions.get(reference) ?? Infinity) < position, `${row.values['ENCF']} before ${reference}`);
  }
}

test('the shared set: every note is sent after its original, the other rows in workbook order', async () => {
  const read = await readCertificationWorkbook({ content: ECF_SET });
  assert.ok(read.ok && read.workbook.kind === 'ecf_set');
  const rows = read.workbook.ecf;
  // The workbook itself puts notes before their originals: the order has to be computed.
  assert.throws(() => assertNotesFollowOriginals(rows));
  const ordered = orderCertificationSends(rows);
  assert.equal(ordered.length, rows.length);
  assert.deepEqual(new Set(ordered), new Set(rows));
  assertNotesFollowOriginals(ordered);
  const notes = ordered.filter((row) => row.values['NCFModificado'] !== undefined);
  assert.equal(notes.length, 3);
  const originals = ordered.filter((row) => row.values['NCFModificado'] === undefined);
  assert.deepEqual(
    originals,
    rows.filter((row) => row.values['NCFModificado'] === undefined),
  );
  for (const note of notes) {
    const position = ordered.indexOf(note);
    assert.ok(['33', '34'].includes(note.values['TipoeCF'] ?? ''));
    // Directly after its original or after an earlier note of the same original.
    const previous = ordered[position - 1];
    assert.ok(
      previous?.values['ENCF'] === note.values['NCFModificado'] ||
        previous?.values['NCFModificado'] === note.values['NCFModificado'],
    );
  }
});

test('notes wait for their original whatever the row order; other notes and rows keep theirs', () => {
  const rows = [
    rowOf(2, '34', 'E340000000002', 'E310000000009'),
    rowOf(3, '33', 'E330000000001', 'E310000000009'),
    rowOf(4, '34', 'E340000000003', 'E310000000777'),
    rowOf(5, '32', 'E320000000001'),
    rowOf(6, '31', 'E310000000009'),
    rowOf(7, '41', 'E410000000001'),
    rowOf(8, '34', 'E340000000004', 'E410000000001'),
  ];
  assert.deepEqual(encfs(orderCertificationSends(rows)), [
    // References an eNCF outside the set (sent before): nothing to wait for.
    'E340000000003',
    'E320000000001',
    'E310000000009',
    'E340000000002',
    'E330000000001',
    'E410000000001',
    'E340000000004',
  ]);
  const inOrder = [rowOf(2, '31', 'E310000000001'), rowOf(3, '34', 'E340000000001', 'E310000000001')];
  assert.deepEqual(orderCertificationSends(inOrder), inOrder);
  assert.deepEqual(orderCertificationSends([]), []);
});
