/** The directory of electronic receivers, from a JSON file (`SIM_DIRECTORY_FILE`). */
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import type { TDirectoryEntry } from './options.ts';

/** One receiver as the directory file and `PUT /_sim/directory` take it. */
export const ZDirectoryEntryInput = z.object({
  rnc: z.string().regex(/^(\d{9}|\d{11})$/),
  name: z.string().min(1).optional(),
  receptionUrl: z.url(),
  commercialApprovalUrl: z.url().optional(),
  authenticationUrl: z.url().optional(),
  /** Where the entry is listed; absent: every environment. */
  environments: z
    .array(z.enum(['testecf', 'certecf', 'ecf']))
    .min(1)
    .transform((environments) => [...new Set(environments)])
    .optional(),
});

const ZDirectory = z.array(ZDirectoryEntryInput);

/** An input entry without its absent optional members. */
export function directoryEntryOf(entry: z.infer<typeof ZDirectoryEntryInput>): TDirectoryEntry {
  return {
    rnc: entry.rnc,
    receptionUrl: entry.receptionUrl,
    ...(entry.name === undefined ? {} : { name: entry.name }),
    ...(entry.commercialApprovalUrl === undefined
      ? {}
      : { commercialApprovalUrl: entry.commercialApprovalUrl }),
    ...(entry.authenticationUrl === undefined ? {} : { authenticationUrl: entry.authenticationUrl }),
    ...(entry.environments === undefined ? {} : { environments: entry.environments }),
  };
}

/** Reads and validates the directory file; the error names the file and the invalid entries. */
export async function readDirectoryFile(path: string): Promise<TDirectoryEntry[]> {
  let json: unknown;
  try {
    json = JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    throw new Error(
      `cannot read the directory file ${path}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  const parsed = ZDirectory.safeParse(json);
  if (!parsed.success)
    throw new Error(
      `invalid directory file ${path}: ${parsed.error.issues.map((issue) => issue.path.join('.')).join(', ')}`,
    );
  return parsed.data.map(directoryEntryOf);
}
