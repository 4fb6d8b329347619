/**
 * The reference copy of the official schemas, beside the repository (`../shared/taxauth/xsd/`):
 * tests read it, never the runtime copy in `config/xsd/`, so a drifted runtime copy cannot hide.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createXsdValidators, type TXsdValidators } from '../src/xsd/index.ts';

export const REFERENCE_XSD_DIRECTORY = new URL('../../../../shared/taxauth/xsd/', import.meta.url);

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
