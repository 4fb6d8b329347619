/**
 * @ecf/config: what every app reads at start: its environment (validated with zod), paths
 * relative to the repository, and the official XSD schemas compiled once.
 */
export { readEnvironment } from './read-environment.ts';
export { ZLogLevel } from './log-level.ts';
export { OFFICIAL_XSD_DIRECTORY, REPOSITORY_ROOT, resolveFromRepository } from './paths.ts';
export { loadXsdValidators } from './xsd.ts';
