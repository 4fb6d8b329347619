/**
 * The two file formats of the portal's exports (issue 27), written from one table: CSV (UTF-8 with
 * a BOM so Excel reads the accents, RFC 4180 quoting, CRLF, text cells that a spreadsheet would run
 * as a formula prefixed with `'`) and Excel `.xlsx` (a minimal SpreadsheetML workbook zipped with
 * fflate: inline strings, money as numeric cells with two decimals written from the decimal text
 * exactly, bold header and totals). Amounts are decimal text from end to end; the totals are summed
 * in cents with BigInt, never through a float.
 */
import { createHash } from 'node:crypto';
import { strToU8, zipSync } from 'fflate';

/** `text` cells are written as text; `money` cells are decimal text (`1234.50`), or null when unknown. */
export type TExportColumn = { header: string; kind: 'text' | 'money' };

/** A finished table: header, rows and (for documents) a totals row, each cell text or null. */
export type TExportTable = {
  sheetName: string;
  columns: TExportColumn[];
  rows: (string | null)[][];
  /** The last row ("Totales"), or null for tables without one (the audit log). */
  totals: (string | null)[] | null;
};

export type TExportFormat = 'csv' | 'xlsx';

export type TExportFile = { content: Uint8Array; contentType: string; extension: string; sha256: string };

const MONEY = /^-?\d{1,16}(\.\d{1,2})?$/;

/** Cents of a decimal text (`-12.5` → -1250n); throws on anything that is not one (a programmer error). */
export function centsOf(amount: string): bigint {
  if (!MONEY.test(amount)) throw new Error(`not a decimal amount: ${JSON.stringify(amount)}`);
  const negative = amount.startsWith('-');
  const [units = '0', fraction = ''] = (negative ? amount.slice(1) : amount).split('.');
  const cents = BigInt(units) * 100n + BigInt(fraction.padEnd(2, '0'));
  return negative ? -cents : cents;
}

/** Decimal text with two decimals of a number of cents (-1250n → `-12.50`). */
export function amountOfCents(cents: bigint): string {
  const negative = cents < 0n;
  const absolute = negative ? -cents : cents;
  const units = absolute / 100n;
  const fraction = (absolute % 100n).toString().padStart(2, '0');
  return `${negative ? '-' : ''}${units.toString()}.${fraction}`;
}

/** A money cell normalised to two decimals (`118` → `118.00`), or null when absent or not an amount. */
export function moneyCell(value: string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  const text = value.trim();
  return MONEY.test(text) ? amountOfCents(centsOf(text)) : null;
}

/** The sum of a money column's known cells. */
export function sumMoney(values: (string | null)[]): string {
  return amountOfCents(values.reduce((sum, value) => (value === null ? sum : sum + centsOf(value)), 0n));
}

/**
 * A text cell as it may enter a CSV: one that a spreadsheet would evaluate (`=`, `+`, `-`, `@`, a
 * tab or a carriage return first) gets a leading `'`, so `=HYPERLINK(...)` from a buyer's name stays
 * text (OWASP "CSV injection").
 */
export function guardFormula(text: string): string {
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

/** RFC 4180: a field with a comma, a quote, CR or LF is quoted and its quotes doubled. */
function csvField(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The table as CSV bytes: BOM, CRLF, money as plain decimal text, text guarded against formulas. */
export function writeCsv(table: TExportTable): Uint8Array {
  const line = (cells: (string | null)[], guarded: boolean) =>
    cells
      .map((cell, index) => {
        if (cell === null) return '';
        const isText = table.columns[index]?.kind !== 'money';
        return csvField(guarded && isText ? guardFormula(cell) : cell);
      })
      .join(',');
  const lines = [
    line(
      table.columns.map((column) => column.header),
      false,
    ),
    ...table.rows.map((row) => line(row, true)),
    ...(table.totals === null ? [] : [line(table.totals, true)]),
  ];
  return strToU8(`\uFEFF${lines.join('\r\n')}\r\n`);
}

// XML 1.0 refuses C0 controls other than tab, LF and CR (and lone surrogates, which a JS string
// written by TextEncoder would turn into U+FFFD anyway): they are dropped from the sheet's text.
// eslint-disable-next-line no-control-regex
const XML_INVALID = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;

function escapeXml(text: string): string {
  return text
    .replace(XML_INVALID, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

/** The column letters of a 0-based index (0 → A, 26 → AA). */
function columnName(index: number): string {
  let name = '';
  for (let rest = index + 1; rest > 0; rest = Math.floor((rest - 1) / 26))
    name = String.fromCharCode(65 + ((rest - 1) % 26)) + name;
  return name;
}

// Styles: 0 default, 1 money (`#,##0.00`, built-in 4), 2 bold text, 3 bold money.
const STYLES_XML =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
  '<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">' +
  '<fonts count="2"><font><sz val="11"/><name val="Calibri"/></font><font><b/><sz val="11"/><name val="Calibri"/></font></fonts>' +
  '<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>' +
  '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>' +
  '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
  '<cellXfs count="4">' +
  '<xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>' +
  '<xf numFmtId="4" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>' +
  '<xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/>' +
  '<xf numFmtId="4" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1" applyNumberFormat="1"/>' +
  '</cellXfs><cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>' +
  '</styleSheet>';

function sheetXml(table: TExportTable): string {
  const rowXml = (cells: (string | null)[], rowNumber: number, bold: boolean) => {
    const body = cells
      .map((cell, index) => {
        if (cell === null) return '';
        const reference = `${columnName(index)}${rowNumber}`;
        const money = table.columns[index]?.kind === 'money' && MONEY.test(cell);
        if (money)
          return `<c r="${reference}" s="${bold ? 3 : 1}"><v>${amountOfCents(centsOf(cell))}</v></c>`;
        return `<c r="${reference}" t="inlineStr"${bold ? ' s="2"' : ''}><is><t xml:space="preserve">${escapeXml(cell)}</t></is></c>`;
      })
      .join('');
    return `<row r="${rowNumber}">${body}</row>`;
  };
  const rows = [
    rowXml(
      table.columns.map((column) => column.header),
      1,
      true,
    ),
    ...table.rows.map((row, index) => rowXml(row, index + 2, false)),
    ...(table.totals === null ? [] : [rowXml(table.totals, table.rows.length + 2, true)]),
  ];
  const widths = table.columns
    .map(
      (column, index) =>
        `<col min="${index + 1}" max="${index + 1}" width="${column.kind === 'money' ? 16 : 22}" customWidth="1"/>`,
    )
    .join('');
  return (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
    '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">' +
    '<sheetViews><sheetView workbookViewId="0"><pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/></sheetView></sheetViews>' +
    `<cols>${widths}</cols><sheetData>${rows.join('')}</sheetData></worksheet>`
  );
}

/** The table as an `.xlsx` workbook of one sheet. */
export function writeXlsx(table: TExportTable): Uint8Array {
  const sheetName = escapeXml(table.sheetName.replace(/[\\/?*[\]:]/g, ' ').slice(0, 31));
  const files: Record<string, Uint8Array> = {
    '[Content_Types].xml': strToU8(
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
        '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
        '<Default Extension="xml" ContentType="application/xml"/>' +
        '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
        '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>' +
        '<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>' +
        '</Types>',
    ),
    '_rels/.rels': strToU8(
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
        '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
        '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/>' +
        '</Relationships>',
    ),
    'xl/workbook.xml': strToU8(
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
        '<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">' +
        `<sheets><sheet name="${sheetName}" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    ),
    'xl/_rels/workbook.xml.rels': strToU8(
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
        '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
        '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/>' +
        '<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/>' +
        '</Relationships>',
    ),
    'xl/styles.xml': strToU8(STYLES_XML),
    'xl/worksheets/sheet1.xml': strToU8(sheetXml(table)),
  };
  return zipSync(files, { level: 6, mtime: new Date('2026-01-01T00:00:00Z') });
}

/** The table in the chosen format, with its content type, extension and SHA-256. */
export function writeExportFile(table: TExportTable, format: TExportFormat): TExportFile {
  const content = format === 'csv' ? writeCsv(table) : writeXlsx(table);
  return {
    content,
    contentType:
      format === 'csv'
        ? 'text/csv; charset=utf-8'
        : 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    extension: format,
    sha256: createHash('sha256').update(content).digest('hex'),
  };
}
