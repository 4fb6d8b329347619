/**
 * From a certification set to the items of a run: each `ECF` row mapped to its e-CF tree exactly as
 * written, validated as an emission would be (fiscal-core + the official XSD), ordered so that every
 * note follows the document it references, and, for an E32 below RD$250,000, the `RFCE` row checked
 * against the summary the service will build from it (the tax authority compares both literally).
 * The simulation's model set is the data set again with new eNCFs and today's dates.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  orderCertificationSends,
  readCertificationRowsJson,
  readCertificationWorkbook,
  workbookRowToEcf,
  workbookRowToRfce,
  type TCertificationWorkbook,
  type TTaxauthTree,
  type TWorkbookError,
  type TWorkbookRow,
} from '@ecf/certification-sets';
import { buildRfceXml, formatDate } from '@ecf/fiscal-core';
import { validateDocumentSubmission, type TSubmissionContext } from '../emission/index.ts';
import { AppError } from '../shared/errors.ts';
import type { TCertificationSetSource } from './certification-request.ts';

/** The consumer-invoice threshold: an E32 below it goes to the tax authority as its RFCE summary. */
const RFCE_THRESHOLD_CENTS = 25_000_000n;

/** Note types: their `NCFModificado` may reference a document of the same set. */
const NOTE_TYPES: ReadonlySet<string> = new Set(['33', '34']);

/** A problem of one row, located in the workbook (or the JSON form) or in the e-CF. */
export type TSetProblem = {
  sheet: string | null;
  row: number | null;
  column: string | null;
  /** The e-CF path of a validation error (`ECF.Encabezado…`), when it comes from validation. */
  path?: string;
  code: string;
  message: string;
};

/** One item as a run stores it. */
export type TPlannedItem = {
  position: number;
  sheetRow: number | null;
  caseRef: string | null;
  type: number;
  encf: string;
  dependsOn: string | null;
  document: TTaxauthTree;
  rfce: TTaxauthTree | null;
  warnings: Array<{ path: string; code: string; message: string }>;
};

export type TPlannedRun = {
  workbook: TCertificationWorkbook & { kind: 'ecf_set' };
  items: TPlannedItem[];
};

const locate = (row: TWorkbookRow): Pick<TSetProblem, 'sheet' | 'row'> => ({
  sheet: row.sheet,
  row: row.row,
});

/** Reads an uploaded set (xlsx or JSON form) for `expectedRnc`; 422 with every problem located. */
export async function readUploadedSet(options: {
  source: Extract<TCertificationSetSource, { kind: 'workbook' | 'json' }>;
  expectedRnc: string;
}): Promise<TCertificationWorkbook & { kind: 'ecf_set' }> {
  const read =
    options.source.kind === 'workbook'
      ? await readCertificationWorkbook({ content: options.source.content, expectedRnc: options.expectedRnc })
      : readCertificationRowsJson({
          ecf: options.source.ecf,
          rfce: options.source.rfce,
          expectedRnc: options.expectedRnc,
        });
  if (!read.ok) throw setError(read.errors, options.expectedRnc);
  if (read.workbook.kind !== 'ecf_set') {
    throw new AppError(
      'CERTIFICATION_SET_INVALID',
      'This is the commercial approvals workbook (ACEECF_Generadas): send it to certificacion/aprobaciones-comerciales. A run needs the test set with the ECF and RFCE sheets.',
      {
        details: {
          errors: [
            {
              sheet: 'ACEECF_Generadas',
              row: null,
              column: null,
              code: 'WORKBOOK_SHEET_MISSING',
              message: 'A data-test set has the sheets ECF and RFCE.',
            },
          ],
        },
      },
    );
  }
  return read.workbook;
}

/** The workbook's errors as the route's 422: issuer mismatch first (its own code), else the set is invalid. */
function setError(errors: readonly TWorkbookError[], expectedRnc: string): AppError {
  const list = errors.slice(0, 200);
  if (errors.some((error) => error.code === 'CERTIFICATION_SET_ISSUER_MISMATCH')) {
    return new AppError(
      'CERTIFICATION_SET_ISSUER_MISMATCH',
      `The set is for another taxpayer: its rows are not for RNC ${expectedRnc}.`,
      { details: { expectedRnc, errors: list, errorCount: errors.length } },
    );
  }
  return new AppError(
    'CERTIFICATION_SET_INVALID',
    `The set cannot be imported: ${errors.length} problem(s); each names its sheet, row and column.`,
    { details: { errors: list, errorCount: errors.length } },
  );
}

/**
 * The model set of the simulation: the account's data set (or the packaged model of the tax
 * authority, for the account's RNC) with new eNCFs per type after `highestSequence`, issue dates of
 * `now`, sequence expiration 31-12 of next year, and notes pointing at the new originals.
 */
export function modelSimulationSet(options: {
  model: TCertificationWorkbook & { kind: 'ecf_set' };
  rnc: string;
  highestSequence: ReadonlyMap<number, number>;
  now: Date;
}): TCertificationWorkbook & { kind: 'ecf_set' } {
  const today = formatDate(options.now);
  const year = Number(today.slice(6));
  const paymentDue = formatDate(new Date(options.now.getTime() + 30 * 86_400_000));
  const next = new Map<number, number>();
  const renumbered = new Map<string, string>();
  for (const row of options.model.ecf) {
    const encf = row.values['ENCF'];
    const type = Number(row.values['TipoeCF']);
    if (encf === undefined || !Number.isInteger(type)) continue;
    const sequence = (next.get(type) ?? options.highestSequence.get(type) ?? 0) + 1;
    next.set(type, sequence);
    renumbered.set(encf, `E${String(type).padStart(2, '0')}${String(sequence).padStart(10, '0')}`);
  }
  const rewrite = (row: TWorkbookRow): TWorkbookRow => {
    const values: Record<string, string> = {};
    for (const [column, value] of Object.entries(row.values)) {
      const name = column.trimEnd();
      if (name === 'CasoPrueba') continue;
      if (name === 'ENCF' || name === 'NCFModificado') values[column] = renumbered.get(value) ?? value;
      else if (name === 'RNCEmisor') values[column] = options.rnc;
      else if (name === 'FechaEmision' || name === 'FechaNCFModificado') values[column] = today;
      else if (name === 'FechaVencimientoSecuencia') values[column] = `31-12-${year + 1}`;
      else if (name === 'FechaLimitePago') values[column] = paymentDue;
      else if (name === 'IndicadorNotaCredito') values[column] = '0';
      else values[column] = value;
    }
    return { sheet: row.sheet, row: row.row, caseId: null, values };
  };
  return {
    kind: 'ecf_set',
    issuerRnc: options.rnc,
    ecf: options.model.ecf.map(rewrite),
    rfce: [],
  };
}

let packagedModel: Promise<TCertificationWorkbook & { kind: 'ecf_set' }> | undefined;

/** The tax authority's model set packaged with `@ecf/certification-sets` (read once). */
export function readPackagedModelSet(): Promise<TCertificationWorkbook & { kind: 'ecf_set' }> {
  packagedModel ??= (async () => {
    const path = fileURLToPath(
      import.meta.resolve('@ecf/certification-sets/model/132641566-set-pruebas-ecf.xlsx'),
    );
    const read = await readCertificationWorkbook({ content: readFileSync(path) });
    if (!read.ok || read.workbook.kind !== 'ecf_set')
      throw new Error('the packaged model set cannot be read');
    return read.workbook;
  })();
  return packagedModel;
}

/**
 * The run's items from a set: every `ECF` row mapped and validated as an emission, in send order.
 * 422 `CERTIFICATION_SET_INVALID` with every problem (mapping, validation errors, an RFCE row that
 * is not the summary of its E32) before anything is stored.
 */
export async function planCertificationRun(
  options: TSubmissionContext & { workbook: TCertificationWorkbook & { kind: 'ecf_set' } },
): Promise<TPlannedRun> {
  const { workbook } = options;
  const problems: TSetProblem[] = [];
  const rfceByEncf = new Map(workbook.rfce.map((row) => [row.values['ENCF'], row]));
  const ordered = orderCertificationSends(workbook.ecf);
  const encfs = new Set(workbook.ecf.map((row) => row.values['ENCF']));
  const items: TPlannedItem[] = [];
  for (const [index, row] of ordered.entries()) {
    const mapped = workbookRowToEcf(row);
    if (!mapped.ok) {
      problems.push(...mapped.errors.map((error) => ({ ...error })));
      continue;
    }
    const rawBody = JSON.stringify(mapped.document);
    const validation = await validateDocumentSubmission({ ...options, rawBody });
    if (!validation.success) {
      problems.push(
        ...validation.errors.map((error) => ({
          ...locate(row),
          column: columnOf(error.path),
          path: error.path,
          code: error.code,
          message: `${row.sheet} row ${row.row} (${row.values['ENCF'] ?? '?'}): ${error.message}`,
        })),
      );
      continue;
    }
    const { data } = validation;
    const encf = data.encf;
    const type = data.type;
    let rfce: TTaxauthTree | null = null;
    const rfceRow = rfceByEncf.get(encf);
    if (type === '32' && isBelowRfceThreshold(data.totalAmount)) {
      if (rfceRow !== undefined) {
        const rfceMapped = workbookRowToRfce(rfceRow);
        if (!rfceMapped.ok) {
          problems.push(...rfceMapped.errors.map((error) => ({ ...error })));
        } else {
          rfce = rfceMapped.document;
          problems.push(...compareSummary({ row: rfceRow, expected: rfce, document: data.document }));
        }
      }
    }
    const reference = row.values['NCFModificado'];
    const dependsOn =
      NOTE_TYPES.has(type) && reference !== undefined && encfs.has(reference) && reference !== encf
        ? reference
        : null;
    items.push({
      position: index + 1,
      sheetRow: row.row,
      caseRef: row.caseId,
      type: Number(type),
      encf,
      dependsOn,
      document: mapped.document,
      rfce,
      warnings: validation.warnings.map(({ path, code, message }) => ({ path, code, message })),
    });
  }
  for (const row of workbook.rfce) {
    const encf = row.values['ENCF'];
    if (encf !== undefined && !encfs.has(encf)) {
      problems.push({
        ...locate(row),
        column: 'ENCF',
        code: 'RFCE_ROW_WITHOUT_ECF',
        message: `RFCE row ${row.row}: ${encf} is not an E32 of the ECF sheet`,
      });
    }
  }
  if (problems.length > 0) {
    throw new AppError(
      'CERTIFICATION_SET_INVALID',
      `${problems.length} problem(s) in the set: nothing was stored or sent. Each names its sheet, row and column or path.`,
      { details: { errors: problems.slice(0, 200), errorCount: problems.length } },
    );
  }
  return { workbook, items };
}

function isBelowRfceThreshold(totalAmount: string): boolean {
  const [units = '0', decimals = ''] = totalAmount.replace('-', '').split('.');
  const cents = BigInt(units) * 100n + BigInt((decimals + '00').slice(0, 2));
  return cents < RFCE_THRESHOLD_CENTS;
}

/** The workbook column of an e-CF path (`ECF.DetallesItems.Item[2].CantidadItem` → `CantidadItem[3]`). */
function columnOf(path: string): string | null {
  const steps = path.split('.');
  const leaf = steps.at(-1);
  if (leaf === undefined || leaf === 'ECF') return null;
  const indices = steps
    .slice(0, -1)
    .map((step) => /\[(\d+)\]$/.exec(step)?.[1])
    .filter((index): index is string => index !== undefined)
    .map((index) => `[${Number(index) + 1}]`);
  return `${leaf.replace(/\[\d+\]$/, '')}${indices.join('')}`;
}

const XML_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** `Element=text` of every leaf of an XML text (entities decoded), sorted. */
function leavesOfXml(xml: string): string[] {
  return [...xml.matchAll(/<([A-Za-z0-9]+)>([^<]*)<\/\1>/g)]
    .map(
      (match) =>
        `${match[1]}=${(match[2] ?? '').replace(/&(amp|lt|gt|quot|apos);/g, (_, name: string) => XML_ENTITIES[name] ?? '')}`,
    )
    .sort();
}

/** `Element=text` of every leaf of a tree, sorted. */
function leavesOfTree(tree: TTaxauthTree | string | Array<string | TTaxauthTree>, name = ''): string[] {
  if (typeof tree === 'string') return [`${name}=${tree}`];
  if (Array.isArray(tree)) return tree.flatMap((entry) => leavesOfTree(entry, name));
  return Object.entries(tree).flatMap(([child, value]) => leavesOfTree(value, child));
}

/**
 * The summary the service builds from the E32 against the `RFCE` row: every leaf of the row must be
 * in the summary with exactly its text and nothing else may be, but `CodigoSeguridadeCF` (the
 * sender computes it from the signed E32; the workbook leaves it `#e`).
 */
function compareSummary(input: {
  row: TWorkbookRow;
  expected: TTaxauthTree;
  document: Parameters<typeof buildRfceXml>[0];
}): TSetProblem[] {
  const built = buildRfceXml(input.document, { securityCode: 'AAAAAA' });
  if (!built.success) {
    return built.issues.map((issue) => ({
      ...locate(input.row),
      column: null,
      path: issue.path,
      code: issue.code,
      message: `RFCE row ${input.row.row}: the summary of its E32 cannot be built: ${issue.message}`,
    }));
  }
  const isCompared = (leaf: string): boolean => !leaf.startsWith('CodigoSeguridadeCF=');
  const actual = leavesOfXml(built.data).filter(isCompared);
  const wanted = leavesOfTree(input.expected).filter(isCompared);
  const missing = difference(wanted, actual);
  const extra = difference(actual, wanted);
  if (missing.length === 0 && extra.length === 0) return [];
  return [
    {
      ...locate(input.row),
      column: missing[0]?.split('=')[0] ?? extra[0]?.split('=')[0] ?? null,
      code: 'RFCE_ROW_MISMATCH',
      message: `RFCE row ${input.row.row} (${input.row.values['ENCF'] ?? '?'}) is not the summary of its E32: expected ${missing.join(', ') || 'nothing more'}; the summary has ${extra.join(', ') || 'nothing more'}`,
    },
  ];
}

/** The entries of `left` not matched one for one in `right` (multiset difference). */
function difference(left: readonly string[], right: readonly string[]): string[] {
  const pool = new Map<string, number>();
  for (const entry of right) pool.set(entry, (pool.get(entry) ?? 0) + 1);
  const rest: string[] = [];
  for (const entry of left) {
    const count = pool.get(entry) ?? 0;
    if (count > 0) pool.set(entry, count - 1);
    else rest.push(entry);
  }
  return rest;
}
