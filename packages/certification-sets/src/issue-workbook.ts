/**
 * Issues the tax authority's certification workbooks for a taxpayer from a template workbook, as
 * the tax authority generates them per RNC: the template's rows with the taxpayer's RNC and fresh
 * eNCFs. Only the cells that name the taxpayer or a document of the set change (`RNCEmisor`,
 * `ENCF`, `CasoPrueba`, `NCFModificado` pointing into the set, optionally `RazonSocialEmisor`;
 * `RNCComprador` and `eNCF` in an approval set); every other cell keeps its text exactly, because
 * the taxpayer will be judged against these texts literally.
 */
import ExcelJS from 'exceljs';
import { readCertificationWorkbook } from './read-certification-workbook.ts';
import {
  WORKBOOK_ERROR_CODES,
  type TCertificationWorkbook,
  type TWorkbookError,
  type TWorkbookRow,
} from './workbook-types.ts';

/** A data-test set ("Set de Pruebas e-CF"). */
export type TEcfSetWorkbook = Extract<TCertificationWorkbook, { kind: 'ecf_set' }>;
/** A commercial-approval set ("Set Aprobaciones Comerciales"). */
export type TApprovalSetWorkbook = Extract<TCertificationWorkbook, { kind: 'approval_set' }>;

/** Which eNCF of the template became which in the issued set (template eNCF → issued eNCF). */
export type TEncfRenumbering = Readonly<Record<string, string>>;

/** The issued workbook: the xlsx bytes, its rows as the reader reads them, and the eNCF mapping. */
export type TIssueWorkbookResult<TWorkbook> =
  | {
      readonly ok: true;
      readonly content: Uint8Array;
      readonly workbook: TWorkbook;
      readonly renumbering: TEncfRenumbering;
    }
  | { readonly ok: false; readonly errors: readonly TWorkbookError[] };

/** Gives the next unused eNCF of an e-CF type (`31` … `47`) for the issued set. */
export type TNextEncf = (type: string) => string;

/** The tax authority's marker of an empty cell, kept as it is. */
const ABSENT_MARKER = '#e';

/** An eNCF: `E`, the two-digit type, ten digits. */
const ENCF_PATTERN = /^E(\d{2})(\d{10})$/;

/** The e-CF type of an eNCF (`E310000000001` → `31`), or null when the text is not an eNCF. */
export function encfTypeOf(encf: string): string | null {
  return ENCF_PATTERN.exec(encf)?.[1] ?? null;
}

/** `E` + type + the sequence in ten digits, as every eNCF is written. */
export function formatEncf(type: string, sequence: number): string {
  if (!/^\d{2}$/.test(type) || !Number.isSafeInteger(sequence) || sequence < 1 || sequence > 9_999_999_999)
    throw new RangeError(`no eNCF of type ${type} has the sequence ${sequence}`);
  return `E${type}${String(sequence).padStart(10, '0')}`;
}

/**
 * A new eNCF for every document of the set: the `ECF` rows in workbook order, then any `RFCE` row
 * whose eNCF is not an `ECF` row (a summary normally repeats the eNCF of its E32, and follows it).
 */
export function planEcfRenumbering(workbook: TEcfSetWorkbook, nextEncf: TNextEncf): TEncfRenumbering {
  return completeRenumbering(workbook, undefined, nextEncf);
}

type TCellRules = {
  readonly rnc: string;
  readonly legalName: string | undefined;
  readonly renumbering: TEncfRenumbering;
};

/**
 * The issued text of one cell of an `ECF`/`RFCE` row, given the header as written and the row's
 * template eNCF. Absent cells (`#e`, blank) stay absent.
 */
function issuedCellText(
  header: string,
  text: string,
  rowEncf: string | undefined,
  rules: TCellRules,
): string {
  if (text === '' || text === ABSENT_MARKER) return text;
  switch (header.trimEnd()) {
    case 'RNCEmisor':
      return rules.rnc;
    case 'RazonSocialEmisor':
      return rules.legalName ?? text;
    case 'ENCF':
    case 'NCFModificado':
      // A note's NCFModificado outside the set (an eNCF sent earlier) is not the set's to renumber.
      return rules.renumbering[text] ?? text;
    case 'CasoPrueba': {
      const issued = rowEncf === undefined ? undefined : rules.renumbering[rowEncf];
      return issued === undefined ? text : `${rules.rnc}${issued}`;
    }
    default:
      return text;
  }
}

/** The rows of a set as issued to `rnc` (pure: the same rules {@link issueEcfWorkbook} writes into the xlsx). */
export function renumberEcfSet(options: {
  workbook: TEcfSetWorkbook;
  rnc: string;
  legalName?: string;
  renumbering: TEncfRenumbering;
}): TEcfSetWorkbook {
  const rules: TCellRules = {
    rnc: options.rnc,
    legalName: options.legalName,
    renumbering: options.renumbering,
  };
  const issue = (row: TWorkbookRow): TWorkbookRow => {
    const rowEncf = row.values['ENCF'];
    const values: Record<string, string> = {};
    for (const [header, text] of Object.entries(row.values))
      values[header] = issuedCellText(header, text, rowEncf, rules);
    return { ...row, caseId: values['CasoPrueba'] ?? null, values };
  };
  return {
    kind: 'ecf_set',
    issuerRnc: options.rnc,
    ecf: options.workbook.ecf.map(issue),
    rfce: options.workbook.rfce.map(issue),
  };
}

/**
 * Writes a "Set de Pruebas e-CF" for `rnc` from a template set: every `RNCEmisor` becomes `rnc`,
 * every `ENCF` a fresh eNCF of its type (`renumbering` when given, else `nextEncf`), `CasoPrueba`
 * `rnc` + the new eNCF, an `NCFModificado` that referenced a document of the set the renumbered
 * one, the `RFCE` rows their E32's new eNCF; `legalName`, when given, replaces `RazonSocialEmisor`.
 * Every other cell keeps its text. The template must itself be a readable set.
 */
export async function issueEcfWorkbook(options: {
  template: Uint8Array;
  rnc: string;
  legalName?: string;
  nextEncf?: TNextEncf;
  renumbering?: TEncfRenumbering;
}): Promise<TIssueWorkbookResult<TEcfSetWorkbook>> {
  const read = await readCertificationWorkbook({ content: options.template });
  if (!read.ok) return read;
  if (read.workbook.kind !== 'ecf_set') return notKind('ECF');
  const template = read.workbook;
  const renumbering = completeRenumbering(template, options.renumbering, options.nextEncf);
  const rules: TCellRules = { rnc: options.rnc, legalName: options.legalName, renumbering };

  const book = await loadWorkbook(options.template);
  for (const name of ['ECF', 'RFCE']) {
    const sheet = book.getWorksheet(name);
    if (sheet === undefined) continue;
    const headers = headerColumns(sheet);
    const encfColumn = headers.find((entry) => entry.header.trimEnd() === 'ENCF')?.column;
    const targets = headers.filter((entry) =>
      ['RNCEmisor', 'RazonSocialEmisor', 'ENCF', 'NCFModificado', 'CasoPrueba'].includes(
        entry.header.trimEnd(),
      ),
    );
    sheet.eachRow({ includeEmpty: false }, (row, rowNumber) => {
      if (rowNumber === 1) return;
      const rowEncf = encfColumn === undefined ? undefined : cellText(row.getCell(encfColumn));
      for (const target of targets) {
        const cell = row.getCell(target.column);
        const text = cellText(cell);
        if (text === undefined) continue;
        const issued = issuedCellText(target.header, text, rowEncf, rules);
        if (issued !== text) cell.value = issued;
      }
    });
  }
  return {
    ok: true,
    content: await writeWorkbook(book),
    workbook: renumberEcfSet({
      workbook: template,
      rnc: options.rnc,
      ...(options.legalName === undefined ? {} : { legalName: options.legalName }),
      renumbering,
    }),
    renumbering,
  };
}

/** The columns of `ACEECF_Generadas`, in the order of the sheet and of the ACECF schema. */
export const APPROVAL_SET_COLUMNS = [
  'Version',
  'RNCEmisor',
  'eNCF',
  'FechaEmision',
  'MontoTotal',
  'RNCComprador',
  'Estado',
  'DetalleMotivoRechazo',
  'FechaHoraAprobacionComercial',
] as const;

/** The cells the tax authority writes as numbers in `ACEECF_Generadas` (`7080`, `1`). */
const NUMERIC_APPROVAL_COLUMNS: ReadonlySet<string> = new Set(['MontoTotal', 'Estado']);

/** One row of an approval set to issue, by column (`RNCComprador` is always the buyer). */
export type TApprovalRowInput = Readonly<
  Partial<Record<(typeof APPROVAL_SET_COLUMNS)[number], string>> & { eNCF: string }
>;

/**
 * Writes a "Set Aprobaciones Comerciales" (`ACEECF_Generadas`) for the buyer `buyerRnc` from a
 * template set. By default the template's rows answer documents of the same issuer under fresh
 * eNCFs (`renumbering`, else `nextEncf` by type); `rows`, when given, replace the template's rows
 * (their eNCFs as given). `RNCComprador` is `buyerRnc` in every row. `MontoTotal` and `Estado` are
 * numeric cells, as in the tax authority's workbooks; the rest is text.
 */
export async function issueApprovalWorkbook(options: {
  template: Uint8Array;
  buyerRnc: string;
  nextEncf?: TNextEncf;
  renumbering?: TEncfRenumbering;
  rows?: readonly TApprovalRowInput[];
}): Promise<TIssueWorkbookResult<TApprovalSetWorkbook>> {
  const read = await readCertificationWorkbook({ content: options.template });
  if (!read.ok) return read;
  if (read.workbook.kind !== 'approval_set') return notKind('ACEECF_Generadas');
  const book = await loadWorkbook(options.template);
  const sheet = book.getWorksheet('ACEECF_Generadas') as ExcelJS.Worksheet;
  const columns = new Map(headerColumns(sheet).map((entry) => [entry.header, entry.column]));
  const renumbering: Record<string, string> = {};

  if (options.rows === undefined) {
    const planned = options.renumbering ?? {};
    sheet.eachRow({ includeEmpty: false }, (row, rowNumber) => {
      if (rowNumber === 1) return;
      const buyer = columns.get('RNCComprador');
      if (buyer !== undefined) row.getCell(buyer).value = options.buyerRnc;
      const encfColumn = columns.get('eNCF');
      const encf = encfColumn === undefined ? undefined : cellText(row.getCell(encfColumn));
      if (encfColumn === undefined || encf === undefined) return;
      if (!Object.hasOwn(renumbering, encf)) {
        const next = planned[encf] ?? options.nextEncf?.(encfTypeOf(encf) ?? '');
        if (next === undefined)
          throw new TypeError(
            `issueApprovalWorkbook: no new eNCF for ${encf} (give renumbering or nextEncf)`,
          );
        renumbering[encf] = next;
      }
      row.getCell(encfColumn).value = renumbering[encf];
    });
  } else {
    // The template's rows beyond the given ones are emptied (a row without values is no row to the reader).
    for (let rowNumber = options.rows.length + 2; rowNumber <= sheet.rowCount; rowNumber += 1) {
      const row = sheet.getRow(rowNumber);
      row.eachCell({ includeEmpty: false }, (cell) => {
        cell.value = null;
      });
      row.commit();
    }
    options.rows.forEach((input, index) => {
      const row = sheet.getRow(index + 2);
      const values: Record<string, string | undefined> = { ...input, RNCComprador: options.buyerRnc };
      for (const [header, column] of columns) {
        const text = values[header];
        const cell = row.getCell(column);
        if (text === undefined || text === '') cell.value = null;
        else if (NUMERIC_APPROVAL_COLUMNS.has(header) && Number.isFinite(Number(text)))
          cell.value = Number(text);
        else cell.value = text;
      }
      row.commit();
    });
  }
  const content = await writeWorkbook(book);
  // The rows as the reader reads them back: numbers as the workbook displays them.
  const issued = await readCertificationWorkbook({ content, expectedRnc: options.buyerRnc });
  if (!issued.ok) return issued;
  if (issued.workbook.kind !== 'approval_set') return notKind('ACEECF_Generadas');
  return { ok: true, content, workbook: issued.workbook, renumbering };
}

function completeRenumbering(
  template: TEcfSetWorkbook,
  given: TEncfRenumbering | undefined,
  nextEncf: TNextEncf | undefined,
): TEncfRenumbering {
  const renumbering: Record<string, string> = {};
  for (const row of [...template.ecf, ...template.rfce]) {
    const encf = row.values['ENCF'];
    if (encf === undefined || Object.hasOwn(renumbering, encf)) continue;
    const next = given?.[encf] ?? nextEncf?.(encfTypeOf(encf) ?? row.values['TipoeCF'] ?? '');
    if (next === undefined)
      throw new TypeError(`issueEcfWorkbook: no new eNCF for ${encf} (give renumbering or nextEncf)`);
    renumbering[encf] = next;
  }
  return renumbering;
}

function notKind(sheet: string): { ok: false; errors: TWorkbookError[] } {
  return {
    ok: false,
    errors: [
      {
        sheet,
        row: null,
        column: null,
        code: WORKBOOK_ERROR_CODES.WORKBOOK_SHEET_MISSING,
        message: `The template is not a workbook with the sheet ${sheet}`,
      },
    ],
  };
}

async function loadWorkbook(content: Uint8Array): Promise<ExcelJS.Workbook> {
  const book = new ExcelJS.Workbook();
  // exceljs types the buffer as its own Buffer interface; a Node Buffer over the same bytes is what it reads.
  await book.xlsx.load(Buffer.from(content.buffer, content.byteOffset, content.byteLength) as never);
  return book;
}

async function writeWorkbook(book: ExcelJS.Workbook): Promise<Uint8Array> {
  const written = await book.xlsx.writeBuffer();
  return new Uint8Array(written);
}

/** The header row: each non-empty header as written with its column number. */
function headerColumns(sheet: ExcelJS.Worksheet): Array<{ header: string; column: number }> {
  const headers: Array<{ header: string; column: number }> = [];
  sheet.getRow(1).eachCell({ includeEmpty: false }, (cell, column) => {
    const text = cellText(cell);
    if (text !== undefined) headers.push({ header: text, column });
  });
  return headers;
}

/** A cell's text as written (numbers as displayed); undefined for a blank cell. */
function cellText(cell: ExcelJS.Cell): string | undefined {
  if (cell.type === ExcelJS.ValueType.Null || cell.type === ExcelJS.ValueType.Merge) return undefined;
  const text = typeof cell.value === 'string' ? cell.value : cell.text;
  return text === '' ? undefined : text;
}
