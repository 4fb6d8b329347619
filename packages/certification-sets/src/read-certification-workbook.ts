/**
 * Reads the tax authority's certification workbooks as they are: the "Set de Pruebas e-CF"
 * (`ECF` and `RFCE` sheets) and the "Set Aprobaciones Comerciales" (`ACEECF_Generadas`), and the
 * JSON form of the same rows. Every cell is read as text exactly as written, because the tax
 * authority compares what arrives with the workbook literally (`15.00` is not `15`).
 */
import ExcelJS from 'exceljs';
import { isKnownColumn } from './workbook-columns.ts';
import {
  WORKBOOK_ERROR_CODES,
  type TApprovalRow,
  type TCertificationWorkbook,
  type TWorkbookError,
  type TWorkbookRow,
} from './workbook-types.ts';

export type TReadWorkbookResult =
  | { readonly ok: true; readonly workbook: TCertificationWorkbook }
  | { readonly ok: false; readonly errors: readonly TWorkbookError[] };

/** The workbook's marker of an empty cell. */
const ABSENT_MARKER = '#e';

const APPROVAL_COLUMNS: readonly string[] = [
  'Version',
  'RNCEmisor',
  'eNCF',
  'FechaEmision',
  'MontoTotal',
  'RNCComprador',
  'Estado',
  'DetalleMotivoRechazo',
  'FechaHoraAprobacionComercial',
];

type TSheetRows = { readonly headers: readonly string[]; readonly rows: readonly TRawRow[] };
type TRawRow = { readonly row: number; readonly values: Record<string, string> };

/**
 * Reads an xlsx upload. The kind follows the sheets: `ECF` (with `RFCE`) is a data-test set,
 * `ACEECF_Generadas` a commercial-approval set. `expectedRnc`, when given, is the taxpayer the
 * set must be for (issuer of an e-CF set, buyer of an approval set).
 */
export async function readCertificationWorkbook(options: {
  content: Uint8Array;
  expectedRnc?: string;
}): Promise<TReadWorkbookResult> {
  const workbook = new ExcelJS.Workbook();
  try {
    // exceljs types the buffer as its own Buffer interface; a Node Buffer over the same bytes is what it reads.
    await workbook.xlsx.load(
      Buffer.from(options.content.buffer, options.content.byteOffset, options.content.byteLength) as never,
    );
  } catch (error) {
    return corrupt(error instanceof Error ? error.message : String(error));
  }
  const sheetNames = workbook.worksheets.map((sheet) => sheet.name);
  if (sheetNames.length === 0) return corrupt('the package holds no worksheet');
  const sheetOf = (name: string): TSheetRows | null => {
    const sheet = workbook.getWorksheet(name);
    return sheet === undefined ? null : readSheet(sheet);
  };

  if (sheetNames.includes('ACEECF_Generadas')) {
    const approvals = sheetOf('ACEECF_Generadas') as TSheetRows;
    return readApprovalRows({ ...approvals, expectedRnc: options.expectedRnc });
  }
  const ecf = sheetOf('ECF');
  const rfce = sheetOf('RFCE');
  if (ecf === null || rfce === null) {
    const missing = ecf === null ? 'ECF' : 'RFCE';
    return {
      ok: false,
      errors: [
        {
          sheet: missing,
          row: null,
          column: null,
          code: WORKBOOK_ERROR_CODES.WORKBOOK_SHEET_MISSING,
          message: `The workbook has no sheet ${missing} (sheets: ${sheetNames.join(', ')}); a data-test set has ECF and RFCE, an approval set ACEECF_Generadas`,
        },
      ],
    };
  }
  return readEcfSet({ ecf, rfce, expectedRnc: options.expectedRnc });
}

/**
 * The JSON form of a data-test set: for each sheet an array of `{ column: value }` objects with the
 * workbook's headers. Values must be strings (a JSON number has lost its written decimals);
 * `#e`, `""` and null are absent. Rows are numbered by their 1-based position in the array.
 */
export function readCertificationRowsJson(options: {
  ecf: readonly Record<string, unknown>[];
  rfce: readonly Record<string, unknown>[];
  expectedRnc?: string;
}): TReadWorkbookResult {
  const errors: TWorkbookError[] = [];
  const toSheet = (sheet: 'ECF' | 'RFCE', rows: readonly Record<string, unknown>[]): TSheetRows => {
    const headers = new Set<string>();
    const raw = rows.map((object, position): TRawRow => {
      const values: Record<string, string> = {};
      for (const [column, value] of Object.entries(object)) {
        headers.add(column);
        if (value === null || value === undefined) continue;
        if (typeof value !== 'string') {
          errors.push({
            sheet,
            row: position + 1,
            column,
            code: WORKBOOK_ERROR_CODES.WORKBOOK_VALUE_NOT_TEXT,
            message: `${sheet} row ${position + 1}, column ${JSON.stringify(column)}: send the value as text exactly as in the workbook, got ${typeof value}`,
          });
          continue;
        }
        if (value !== '' && value !== ABSENT_MARKER) values[column] = value;
      }
      return { row: position + 1, values };
    });
    return { headers: [...headers], rows: raw };
  };
  const ecf = toSheet('ECF', options.ecf);
  const rfce = toSheet('RFCE', options.rfce);
  if (errors.length > 0) return { ok: false, errors };
  return readEcfSet({ ecf, rfce, expectedRnc: options.expectedRnc, headerRow: null });
}

function corrupt(reason: string): TReadWorkbookResult {
  return {
    ok: false,
    errors: [
      {
        sheet: null,
        row: null,
        column: null,
        code: WORKBOOK_ERROR_CODES.WORKBOOK_CORRUPT,
        message: `The file is not a readable xlsx workbook: ${reason}`,
      },
    ],
  };
}

/** Header row 1, data from row 2; rows with no cell at all are skipped. */
function readSheet(sheet: ExcelJS.Worksheet): TSheetRows {
  const headers: string[] = [];
  const headerColumns: Array<string | null> = [];
  sheet.getRow(1).eachCell({ includeEmpty: true }, (cell, column) => {
    const text = textOf(cell);
    headerColumns[column] = text;
    if (text !== null) headers.push(text);
  });
  const rows: TRawRow[] = [];
  sheet.eachRow({ includeEmpty: false }, (row, rowNumber) => {
    if (rowNumber === 1) return;
    const values: Record<string, string> = {};
    let hasCell = false;
    row.eachCell({ includeEmpty: false }, (cell, column) => {
      const text = textOf(cell);
      if (text === null) return;
      hasCell = true;
      let header = headerColumns[column] ?? null;
      if (header === null) {
        // A value under no header is reported as a column of its own rather than dropped.
        header = `(column ${column})`;
        headerColumns[column] = header;
        headers.push(header);
      }
      if (text !== ABSENT_MARKER) values[header] = text;
    });
    if (hasCell) rows.push({ row: rowNumber, values });
  });
  return { headers, rows };
}

/**
 * A cell as the text a person sees written in it: strings as they are, numbers as the workbook
 * formats them (`7080`, `1`), formulas by their result; blank is null.
 */
function textOf(cell: ExcelJS.Cell): string | null {
  if (cell.type === ExcelJS.ValueType.Null || cell.type === ExcelJS.ValueType.Merge) return null;
  if (cell.type === ExcelJS.ValueType.String) {
    const value = cell.value as string;
    return value === '' ? null : value;
  }
  if (cell.type === ExcelJS.ValueType.Date) {
    const date = cell.value as Date;
    const pad = (value: number): string => String(value).padStart(2, '0');
    const day = `${pad(date.getUTCDate())}-${pad(date.getUTCMonth() + 1)}-${date.getUTCFullYear()}`;
    const hasTime = date.getUTCHours() + date.getUTCMinutes() + date.getUTCSeconds() > 0;
    return hasTime
      ? `${day} ${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}`
      : day;
  }
  const text = cell.text;
  return text === '' ? null : text;
}

function readEcfSet(options: {
  ecf: TSheetRows;
  rfce: TSheetRows;
  expectedRnc: string | undefined;
  headerRow?: number | null;
}): TReadWorkbookResult {
  const headerRow = options.headerRow === undefined ? 1 : options.headerRow;
  const errors: TWorkbookError[] = [];
  for (const sheet of ['ECF', 'RFCE'] as const) {
    const rows = sheet === 'ECF' ? options.ecf : options.rfce;
    const seen = new Set<string>();
    for (const header of rows.headers) {
      if (seen.has(header)) {
        errors.push({
          sheet,
          row: headerRow,
          column: header,
          code: WORKBOOK_ERROR_CODES.WORKBOOK_COLUMN_DUPLICATE,
          message: `Sheet ${sheet}: the column ${JSON.stringify(header)} appears twice`,
        });
        continue;
      }
      seen.add(header);
      if (isKnownColumn(sheet, header)) continue;
      errors.push({
        sheet,
        row: headerRow,
        column: header,
        code: WORKBOOK_ERROR_CODES.WORKBOOK_COLUMN_UNKNOWN,
        message: `Sheet ${sheet}, column ${JSON.stringify(header)}: no ${sheet === 'ECF' ? 'e-CF' : 'RFCE'} element has that name`,
      });
    }
    if (rows.rows.length === 0) {
      errors.push({
        sheet,
        row: null,
        column: null,
        code: WORKBOOK_ERROR_CODES.WORKBOOK_SHEET_EMPTY,
        message: `Sheet ${sheet} has no data rows`,
      });
    }
  }
  const toRows = (sheet: 'ECF' | 'RFCE', rows: TSheetRows): TWorkbookRow[] =>
    rows.rows.map((raw) => ({
      sheet,
      row: raw.row,
      caseId: raw.values['CasoPrueba'] ?? null,
      values: raw.values,
    }));
  const ecf = toRows('ECF', options.ecf);
  const rfce = toRows('RFCE', options.rfce);
  const issuerRnc = checkOneRnc({
    rows: [...ecf, ...rfce].map((row) => ({ sheet: row.sheet, row: row.row, values: row.values })),
    column: 'RNCEmisor',
    expectedRnc: options.expectedRnc,
    errors,
  });
  for (const row of [...ecf, ...rfce]) {
    const encf = row.values['ENCF'];
    if (encf === undefined) {
      errors.push({
        sheet: row.sheet,
        row: row.row,
        column: 'ENCF',
        code: WORKBOOK_ERROR_CODES.WORKBOOK_VALUE_REQUIRED,
        message: `${row.sheet} row ${row.row}: ENCF is empty`,
      });
      continue;
    }
    // CasoPrueba is `<RNC><eNCF>`: a case of another taxpayer's set is another RNC too.
    if (issuerRnc !== null && row.caseId !== null && row.caseId !== `${issuerRnc}${encf}`) {
      errors.push({
        sheet: row.sheet,
        row: row.row,
        column: 'CasoPrueba',
        code: WORKBOOK_ERROR_CODES.CERTIFICATION_SET_ISSUER_MISMATCH,
        message: `${row.sheet} row ${row.row}: CasoPrueba ${row.caseId} is not ${issuerRnc}${encf}, the case of this set's RNC and the row's eNCF`,
      });
    }
  }
  if (errors.length > 0 || issuerRnc === null) return { ok: false, errors };
  return { ok: true, workbook: { kind: 'ecf_set', issuerRnc, ecf, rfce } };
}

function readApprovalRows(options: TSheetRows & { expectedRnc: string | undefined }): TReadWorkbookResult {
  const sheet = 'ACEECF_Generadas';
  const errors: TWorkbookError[] = [];
  for (const header of options.headers) {
    if (APPROVAL_COLUMNS.includes(header)) continue;
    errors.push({
      sheet,
      row: 1,
      column: header,
      code: WORKBOOK_ERROR_CODES.WORKBOOK_COLUMN_UNKNOWN,
      message: `Sheet ${sheet}, column ${JSON.stringify(header)}: not an ACECF element (${APPROVAL_COLUMNS.join(', ')})`,
    });
  }
  if (options.rows.length === 0) {
    errors.push({
      sheet,
      row: null,
      column: null,
      code: WORKBOOK_ERROR_CODES.WORKBOOK_SHEET_EMPTY,
      message: `Sheet ${sheet} has no data rows`,
    });
  }
  const buyerRnc = checkOneRnc({
    rows: options.rows.map((row) => ({ sheet, row: row.row, values: row.values })),
    column: 'RNCComprador',
    expectedRnc: options.expectedRnc,
    errors,
  });
  if (errors.length > 0 || buyerRnc === null) return { ok: false, errors };
  const approvals: TApprovalRow[] = options.rows.map((row) => ({ row: row.row, values: row.values }));
  return { ok: true, workbook: { kind: 'approval_set', buyerRnc, approvals } };
}

/**
 * The one RNC of a set: the expected one when given, otherwise the one most rows carry. Every row
 * with another (or none) is an error on its cell.
 */
function checkOneRnc(options: {
  rows: ReadonlyArray<{ sheet: string; row: number; values: Readonly<Record<string, string>> }>;
  column: string;
  expectedRnc: string | undefined;
  errors: TWorkbookError[];
}): string | null {
  const counts = new Map<string, number>();
  for (const row of options.rows) {
    const rnc = row.values[options.column];
    if (rnc !== undefined) counts.set(rnc, (counts.get(rnc) ?? 0) + 1);
  }
  const mostCommon = [...counts.entries()].sort((left, right) => right[1] - left[1])[0]?.[0] ?? null;
  const rnc = options.expectedRnc ?? mostCommon;
  for (const row of options.rows) {
    const value = row.values[options.column];
    if (value === undefined) {
      options.errors.push({
        sheet: row.sheet,
        row: row.row,
        column: options.column,
        code: WORKBOOK_ERROR_CODES.WORKBOOK_VALUE_REQUIRED,
        message: `${row.sheet} row ${row.row}: ${options.column} is empty`,
      });
    } else if (value !== rnc) {
      options.errors.push({
        sheet: row.sheet,
        row: row.row,
        column: options.column,
        code: WORKBOOK_ERROR_CODES.CERTIFICATION_SET_ISSUER_MISMATCH,
        message: `${row.sheet} row ${row.row}: ${options.column} ${value} is not ${rnc}, the RNC ${options.expectedRnc === undefined ? 'of the rest of the set' : 'this set is for'}`,
      });
    }
  }
  return rnc;
}
