/**
 * The tax authority's taxpayer registry: loaded from its published file by the admin CLI (COPY,
 * atomic replacement), read when a Partner links an account (the RNC must be ACTIVE) and by rule
 * 18's buyer warnings on every emission and preflight.
 */
export { importTaxpayerRegistry, type TRegistryImportReport } from './import-taxpayer-registry.ts';
export {
  forgetRegistryState,
  isActiveTaxpayerStatus,
  lookUpTaxpayer,
  taxpayerLookupFor,
  type TTaxpayer,
} from './look-up-taxpayer.ts';
export { copyText, parseRegistryLine, type TRegistryLine } from './registry-file.ts';
