/**
 * The catalogue of official sets (Partner `GET /certification/official-sets`; docs/partner-api.md,
 * "Official sets"): data-test workbooks in the tax authority's format ("Set de Pruebas e-CF", sheets
 * `ECF` and `RFCE`) that the operator loads with `admin official-set load`, read and checked by the
 * same reader as an uploaded set. A set is keyed by its `ref`, which is never reused: a case's
 * `officialSetRef` always names the same rows. Retiring a set takes it out of the catalogue (no new
 * case or change of set may choose it) but keeps it for the cases already on it, which go on
 * running it. `defaultRef` is the newest set of the catalogue. The simulation model set (the tax
 * authority's model used with `taxauthModel`) is packaged apart and never listed.
 *
 * The tax authority generates a workbook for one RNC; a run of an official set sends its rows for
 * the account: `RNCEmisor` becomes the account's RNC and `CasoPrueba` `<RNC><eNCF>`, every other
 * cell as written.
 */
import { createHash } from 'node:crypto';
import type { TDatabase } from '@ecf/db';
import {
  readCertificationWorkbook,
  type TCertificationWorkbook,
  type TWorkbookRow,
} from '@ecf/certification-sets';
import {
  findOfficialSetRow,
  findOfficialSetRows,
  insertOfficialSet,
  retireOfficialSetRow,
  type TOfficialSetRow,
} from '../persistence/index.ts';
import { AppError } from '../shared/errors.ts';

/** A set as the catalogue shows it. */
export type TOfficialSet = { ref: string; name: string; description: string };

/** A set as the operator sees it (`admin official-set list`). */
export type TOfficialSetDetail = TOfficialSet & {
  issuerRnc: string;
  sha256: string;
  rows: number;
  createdAt: string;
  retiredAt: string | null;
};

/** A ref: what a Partner sends as `officialSetRef` (letters, digits, `.`, `_`, `-`; up to 100). */
export const OFFICIAL_SET_REF = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;
const NAME_MAX = 200;
const DESCRIPTION_MAX = 2000;

function detailOf(row: TOfficialSetRow): TOfficialSetDetail {
  return {
    ref: row.ref,
    name: row.name,
    description: row.description,
    issuerRnc: row.issuerRnc,
    sha256: row.sha256,
    rows: row.rowCount,
    createdAt: row.createdAt.toISOString(),
    retiredAt: row.retiredAt?.toISOString() ?? null,
  };
}

function invalid(field: string, message: string, extra: Record<string, unknown> = {}): never {
  throw new AppError('INVALID_REQUEST', message, { details: { field, ...extra } });
}

/**
 * Loads a workbook as a new official set: 400 `INVALID_REQUEST` (`details.field`: `ref` malformed
 * or taken, `name`, `description`); 422 `CERTIFICATION_SET_INVALID` with every problem the reader
 * finds (`details.errors[]`: sheet, row, column, code), or for the commercial approvals workbook.
 */
export async function loadOfficialSet(options: {
  database: TDatabase;
  ref: string;
  name: string;
  description?: string | undefined;
  content: Uint8Array;
  now: Date;
}): Promise<TOfficialSetDetail> {
  const { ref, name } = options;
  const description = options.description ?? '';
  if (!OFFICIAL_SET_REF.test(ref))
    invalid('ref', 'A ref has 1 to 100 letters, digits, ".", "_" or "-", starting with a letter or digit.');
  if (name.trim() === '' || name.length > NAME_MAX)
    invalid('name', `A name has 1 to ${NAME_MAX} characters.`);
  if (description.length > DESCRIPTION_MAX)
    invalid('description', `A description has at most ${DESCRIPTION_MAX} characters.`);
  const read = await readCertificationWorkbook({ content: options.content });
  if (!read.ok)
    throw new AppError(
      'CERTIFICATION_SET_INVALID',
      `The workbook cannot be loaded: ${read.errors.length} problem(s); each names its sheet, row and column.`,
      { details: { errors: read.errors.slice(0, 200), errorCount: read.errors.length } },
    );
  if (read.workbook.kind !== 'ecf_set')
    throw new AppError(
      'CERTIFICATION_SET_INVALID',
      'This is the commercial approvals workbook (ACEECF_Generadas); an official set is a data-test workbook with the ECF and RFCE sheets.',
      {
        details: {
          errors: [
            {
              sheet: 'ECF',
              row: null,
              column: null,
              code: 'WORKBOOK_SHEET_MISSING',
              message: 'A data-test set has the sheets ECF and RFCE.',
            },
          ],
        },
      },
    );
  const { workbook } = read;
  if (workbook.ecf.length === 0)
    throw new AppError('CERTIFICATION_SET_INVALID', 'The workbook has no ECF rows.', {
      details: { errors: [] },
    });
  const inserted = await insertOfficialSet(options.database, {
    ref,
    name,
    description,
    issuerRnc: workbook.issuerRnc,
    sha256: createHash('sha256').update(options.content).digest('hex'),
    content: options.content,
    rows: { ecf: workbook.ecf, rfce: workbook.rfce },
    rowCount: workbook.ecf.length + workbook.rfce.length,
    now: options.now,
  });
  if (inserted === null)
    invalid('ref', `The ref ${ref} is taken (a ref is never reused, even once retired): choose another.`, {
      reason: 'taken',
    });
  return detailOf(inserted);
}

/** The catalogue (sets not retired, oldest first) and its default: the newest, null when none. */
export async function listOfficialSets(options: {
  database: TDatabase;
}): Promise<{ items: TOfficialSet[]; defaultRef: string | null }> {
  const rows = await findOfficialSetRows(options.database, { retired: false });
  return {
    items: rows.map((row) => ({ ref: row.ref, name: row.name, description: row.description })),
    defaultRef: rows.at(-1)?.ref ?? null,
  };
}

/** Every set, retired ones included (the operator's list). */
export async function listAllOfficialSets(options: { database: TDatabase }): Promise<TOfficialSetDetail[]> {
  return (await findOfficialSetRows(options.database, { retired: true })).map(detailOf);
}

/** Retires a set: out of the catalogue, kept for the cases on it (`openCases`); NOT_FOUND for an unknown ref. */
export async function retireOfficialSet(options: {
  database: TDatabase;
  ref: string;
  now: Date;
}): Promise<TOfficialSetDetail & { openCases: number }> {
  const row = await retireOfficialSetRow(options.database, { ref: options.ref, now: options.now });
  if (row === null) throw new AppError('NOT_FOUND', `No official set ${options.ref}.`);
  return { ...detailOf(row), openCases: row.openCases };
}

/** A set a case may choose now (in the catalogue, not retired), or null. */
export async function findOfficialSet(database: TDatabase, ref: string): Promise<TOfficialSet | null> {
  if (!OFFICIAL_SET_REF.test(ref)) return null;
  const row = await findOfficialSetRow(database, ref);
  if (row === null || row.retiredAt !== null) return null;
  return { ref: row.ref, name: row.name, description: row.description };
}

/**
 * The rows of an official set for the account of `rnc` (retired sets included: a case on one keeps
 * running it): `RNCEmisor` the account's, `CasoPrueba` `<RNC><eNCF>`. NOT_FOUND when the ref is gone.
 */
export async function officialSetFor(options: {
  database: TDatabase;
  ref: string;
  rnc: string;
}): Promise<TCertificationWorkbook & { kind: 'ecf_set' }> {
  const row = await findOfficialSetRow(options.database, options.ref);
  const rows = row?.rows as { ecf?: TWorkbookRow[]; rfce?: TWorkbookRow[] } | null | undefined;
  if (row === null || !Array.isArray(rows?.ecf) || !Array.isArray(rows.rfce))
    throw new AppError('NOT_FOUND', `No official set ${options.ref}.`, {
      details: { officialSetRef: options.ref },
    });
  const forAccount = (source: TWorkbookRow): TWorkbookRow => {
    const values: Record<string, string> = {};
    const encf = Object.entries(source.values).find(([column]) => column.trimEnd() === 'ENCF')?.[1];
    for (const [column, value] of Object.entries(source.values)) {
      const name = column.trimEnd();
      if (name === 'RNCEmisor') values[column] = options.rnc;
      else if (name === 'CasoPrueba' && encf !== undefined) values[column] = `${options.rnc}${encf}`;
      else values[column] = value;
    }
    return {
      sheet: source.sheet,
      row: source.row,
      caseId: source.caseId === null || encf === undefined ? source.caseId : `${options.rnc}${encf}`,
      values,
    };
  };
  return {
    kind: 'ecf_set',
    issuerRnc: options.rnc,
    ecf: rows.ecf.map(forAccount),
    rfce: rows.rfce.map(forAccount),
  };
}
