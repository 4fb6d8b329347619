import { readdir, readFile } from 'node:fs/promises';
import { isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createXsdValidators, type TXsdValidators } from '@ecf/fiscal-core';

const REPOSITORY_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** `XSD_DIRECTORY` as configured: absolute as is, relative to the repository root otherwise. */
export function resolveXsdDirectory(configured: string): string {
  return isAbsolute(configured) ? configured : resolve(REPOSITORY_ROOT, configured);
}

const ECF_KINDS = ['ECF31', 'ECF32', 'ECF33', 'ECF34', 'ECF41', 'ECF43', 'ECF44', 'ECF45', 'ECF46', 'ECF47'];

/**
 * Compiles the official schemas of `directory` once (every `.xsd` in it). The apps call it at start
 * and reuse the validators; a directory without the ten e-CF schemas stops the start.
 */
export async function loadXsdValidators(directory: string): Promise<TXsdValidators> {
  const schemas: Record<string, string> = {};
  for (const name of await readdir(directory)) {
    if (name.endsWith('.xsd')) schemas[name] = await readFile(join(directory, name), 'utf8');
  }
  const result = createXsdValidators(schemas);
  if (!result.success)
    throw new Error(
      `XSD_DIRECTORY ${directory}: ${result.issues.map((issue) => `${issue.path}: ${issue.message}`).join('; ')}`,
    );
  const missing = ECF_KINDS.filter((kind) => !(result.data.kinds as readonly string[]).includes(kind));
  if (missing.length > 0)
    throw new Error(`XSD_DIRECTORY ${directory} lacks the e-CF schemas ${missing.join(', ')}`);
  return result.data;
}
