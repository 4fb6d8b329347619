import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createXsdValidators, type TXsdValidators } from '@ecf/fiscal-core';
import { resolveFromRepository } from './paths.ts';

const ECF_KINDS = ['ECF31', 'ECF32', 'ECF33', 'ECF34', 'ECF41', 'ECF43', 'ECF44', 'ECF45', 'ECF46', 'ECF47'];

/**
 * Compiles the official schemas of `directory` once (every `.xsd` in it; a relative directory is
 * taken from the repository root). The apps call it at start and reuse the validators; a directory
 * without the ten e-CF schemas stops the start.
 */
export async function loadXsdValidators(directory: string): Promise<TXsdValidators> {
  const resolved = resolveFromRepository(directory);
  const schemas: Record<string, string> = {};
  for (const name of await readdir(resolved)) {
    if (name.endsWith('.xsd')) schemas[name] = await readFile(join(resolved, name), 'utf8');
  }
  const result = createXsdValidators(schemas);
  if (!result.success)
    throw new Error(
      `XSD_DIRECTORY ${resolved}: ${result.issues.map((issue) => `${issue.path}: ${issue.message}`).join('; ')}`,
    );
  const missing = ECF_KINDS.filter((kind) => !(result.data.kinds as readonly string[]).includes(kind));
  if (missing.length > 0)
    throw new Error(`XSD_DIRECTORY ${resolved} lacks the e-CF schemas ${missing.join(', ')}`);
  return result.data;
}
