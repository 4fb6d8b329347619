/** @ecf/taxauth-sim: a standalone simulator of the tax authority's (DGII) e-CF web services. */
export { buildSimulator, startSimulator } from './app.ts';
export type { TSimulatorOptions, TDirectoryEntry } from './options.ts';
export { MAGIC_BUYER_RNC } from './judge.ts';
export { FAULT_KINDS, type TFault, type TFaultKind } from './store.ts';
