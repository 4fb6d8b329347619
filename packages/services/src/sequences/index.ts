/**
 * Sequences: registered eNCF ranges (optional; rule 16 compares `FechaVencimientoSecuencia` with
 * them) and their counts.
 */
export { registerSequenceRange } from './register-sequence-range.ts';
export { listSequenceRanges } from './list-sequence-ranges.ts';
export { sequenceRangeViewOf, type TSequenceRange } from './sequence-range-view.ts';
export {
  findRegisteredRange,
  forgetNoRegisteredRanges,
  NO_RANGES_MEMORY_MS,
} from './find-registered-range.ts';
