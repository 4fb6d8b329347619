/**
 * Test support: the tax authority's model workbook as the JSON form of its rows, for another RNC
 * and fresh eNCFs (a sent eNCF is used up for good, so every run of a test needs its own).
 */
import { randomInt } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { readCertificationWorkbook, type TWorkbookRow } from '@ecf/certification-sets';

export const MODEL_WORKBOOK = readFileSync(
  new URL(import.meta.resolve('@ecf/certification-sets/model/132641566-set-pruebas-ecf.xlsx')),
);

/** `{ ecf, rfce }` rows of the model for `rnc`, every eNCF renumbered (notes follow their originals). */
export async function modelSetFor(
  rnc: string,
): Promise<{ ecf: Record<string, string>[]; rfce: Record<string, string>[] }> {
  const read = await readCertificationWorkbook({ content: MODEL_WORKBOOK });
  if (!read.ok || read.workbook.kind !== 'ecf_set') throw new Error('the model workbook cannot be read');
  const base = randomInt(1, 900_000_000);
  const renumbered = new Map<string, string>();
  let next = base;
  for (const row of read.workbook.ecf) {
    const encf = row.values['ENCF'];
    if (encf !== undefined)
      renumbered.set(encf, `${encf.slice(0, 3)}${String((next += 1)).padStart(10, '0')}`);
  }
  const rewrite = (row: TWorkbookRow): Record<string, string> => {
    const values: Record<string, string> = {};
    for (const [column, value] of Object.entries(row.values)) {
      if (column === 'RNCEmisor') values[column] = rnc;
      else if (column === 'ENCF' || column === 'NCFModificado')
        values[column] = renumbered.get(value) ?? value;
      else if (column === 'CasoPrueba')
        values[column] = `${rnc}${renumbered.get(row.values['ENCF'] ?? '') ?? ''}`;
      else values[column] = value;
    }
    return values;
  };
  return { ecf: read.workbook.ecf.map(rewrite), rfce: read.workbook.rfce.map(rewrite) };
}
