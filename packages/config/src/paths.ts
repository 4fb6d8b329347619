import { isAbsolute, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root folder: relative paths in the environment are relative to it. */
export const REPOSITORY_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** A path from configuration: absolute as is, relative to the repository root otherwise. */
export function resolveFromRepository(path: string): string {
  return isAbsolute(path) ? path : resolve(REPOSITORY_ROOT, path);
}

/**
 * The official XSD schemas kept in this repository (`config/xsd`, byte-identical to the published
 * set: `SHA256SUMS` beside them, checked by this package's tests). `XSD_DIRECTORY`'s default, and
 * what every test loads.
 */
export const OFFICIAL_XSD_DIRECTORY = resolveFromRepository('config/xsd');
