/** @ecf/worker: the pg-boss worker as a library (tests and benchmarks run it in process). */
export { createWorker, type TWorkerOptions } from './worker.ts';
export {
  JOB_REGISTRY,
  type TAnyJobDefinition,
  type TJobContext,
  type TJobDefinition,
} from './jobs/registry.ts';
export { readEnv, type TEnv } from './env.ts';
