/**
 * @ecf/printing: the printed representation (RI) of an e-CF as a letter-size PDF. Pure: the caller
 * passes the document read from the stored signed XML and the values derived from the signature.
 */
export { renderPrintedRepresentation } from './render-printed-representation.ts';
export {
  buildPrintModel,
  type TPrintInput,
  type TPrintModel,
  type TPrintItem,
  type TPrintLabelled,
} from './print-model.ts';
export { ECF_TYPE_NAMES, MODIFICATION_CODE_NAMES, formatAmount } from './format.ts';
