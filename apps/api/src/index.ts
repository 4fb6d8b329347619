/** @ecf/api: the REST API as a library (tests and benchmarks build it in process without listening). */
export { buildApp, REDACTED_HEADERS, type TAppOptions } from './app.ts';
export { readEnv, type TEnv } from './env.ts';
