/**
 * The official schemas as this repository keeps them (`config/xsd/`, byte-identical to the published
 * set: @ecf/config's tests check every file against `SHA256SUMS`), so a drifted copy cannot hide.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createXsdValidators, type TXsdValidators } from '../src/xsd/index.ts';

export const REFERENCE_XSD_DIRECTORY = new URL('../../../config/xsd/', import.meta.url);

/** Compiles every reference schema once; the caller disposes the validators. */
export function loadReferenceXsdValidators(): TXsdValidators {
  const schemas = Object.fromEntries(
    readdirSync(REFERENCE_XSD_DIRECTORY)
      .filter((file) => file.endsWith('.xsd'))
      .map((file) => [file, readFileSync(new URL(encodeURIComponent(file), REFERENCE_XSD_DIRECTORY))]),
  );
  const compiled = createXsdValidators(schemas);
  if (!compiled.success) throw new Error(JSON.stringify(compiled.issues));
  return compiled.data;
}
