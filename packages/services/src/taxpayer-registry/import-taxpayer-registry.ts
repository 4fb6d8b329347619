import { open } from 'node:fs/promises';
import { basename } from 'node:path';
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import type { TDatabase } from '@ecf/db';
import {
  completeRegistryImport,
  copyRegistryEntries,
  discardRegistryImport,
  insertRegistryImport,
} from '../persistence/index.ts';
import { copyText, parseRegistryLine } from './registry-file.ts';
import { forgetRegistryState } from './look-up-taxpayer.ts';

/** Lines handed to COPY per chunk (fewer, larger writes). */
const LINES_PER_CHUNK = 2000;

/** What an import did. */
export type TRegistryImportReport = {
  importId: string;
  /** Taxpayers loaded. */
  rows: number;
  /** Lines that are not a taxpayer (blank, a header, an RNC of neither 9 nor 11 digits). */
  skipped: number;
  /** Lines repeating an RNC already read (the first one is kept). */
  duplicates: number;
  /** Rows of the previous registry removed. */
  replacedRows: number;
  durationMs: number;
};

/**
 * Loads the tax authority's taxpayer file (registry-file.ts) as the new registry: the file is read
 * as a stream (never whole in memory), each taxpayer written to ONE COPY; only when the COPY landed
 * does the import become current, in one UPDATE, so readers (account linking, rule 18's buyer
 * warnings) see the old registry or the new one, never a mix; the old rows are then deleted. A
 * failure leaves the previous registry current. `encoding`: DGII publishes ISO-8859-1 (`latin1`).
 */
export async function importTaxpayerRegistry(options: {
  database: TDatabase;
  /** A file path, or a stream of the file's bytes. */
  source: string | Readable;
  fileName?: string;
  encoding?: 'latin1' | 'utf8';
  now?: () => Date;
}): Promise<TRegistryImportReport> {
  const now = options.now ?? (() => new Date());
  const started = performance.now();
  const fileName =
    options.fileName ?? (typeof options.source === 'string' ? basename(options.source) : 'registry.txt');
  // A file that cannot be opened fails here, before anything is written.
  const input =
    typeof options.source === 'string'
      ? (await open(options.source)).createReadStream({ encoding: options.encoding ?? 'latin1' })
      : options.source.setEncoding(options.encoding ?? 'latin1');
  const importId = await insertRegistryImport(options.database, { fileName, at: now() });
  const seen = new Set<string>();
  let skipped = 0;
  let duplicates = 0;
  async function* copyLines(): AsyncGenerator<string> {
    let chunk: string[] = [];
    for await (const line of createInterface({ input, crlfDelay: Infinity })) {
      const parsed = parseRegistryLine(line);
      if (parsed === null) {
        if (line.trim() !== '') skipped += 1;
        continue;
      }
      if (seen.has(parsed.rnc)) {
        duplicates += 1;
        continue;
      }
      seen.add(parsed.rnc);
      chunk.push(
        `${importId}\t${parsed.rnc}\t${copyText(parsed.name)}\t${copyText(parsed.tradeName)}\t${copyText(parsed.activity)}\t${copyText(parsed.status)}\n`,
      );
      if (chunk.length >= LINES_PER_CHUNK) {
        yield chunk.join('');
        chunk = [];
      }
    }
    if (chunk.length > 0) yield chunk.join('');
  }
  try {
    const rows = await copyRegistryEntries(options.database, {
      importId,
      lines: Readable.from(copyLines(), { objectMode: false }),
    });
    const { deletedRows } = await completeRegistryImport(options.database, { importId, rows, at: now() });
    forgetRegistryState(options.database);
    return {
      importId,
      rows,
      skipped,
      duplicates,
      replacedRows: deletedRows,
      durationMs: Math.round(performance.now() - started),
    };
  } catch (error) {
    await discardRegistryImport(options.database, importId).catch(() => undefined);
    throw error;
  }
}
