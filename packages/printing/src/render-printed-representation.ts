/**
 * Renders the printed representation (RI) of an e-CF as a letter-size PDF.
 */
import { layoutPrintedPdf } from './pdf-layout.ts';
import { buildPrintModel } from './print-model.ts';
import type { TPrintInput } from './print-model.ts';
import { qrSymbolOf } from './qr-image.ts';

/**
 * The PDF of an e-CF: issuer, buyer, type name and eNCF, sequence expiration date (never for 32 and
 * 34), reference data of notes, items, totals and taxes, other currency, and the QR of `qrUrl` with
 * the security code and signature date. `input.document` must be `readEcfXml` of the stored signed
 * XML, so the paper shows exactly what was signed. Throws a `TypeError` for a tree without a valid
 * `TipoeCF`/`eNCF` (a programmer error: stored documents always have them).
 */
export async function renderPrintedRepresentation(input: TPrintInput): Promise<Buffer> {
  const model = buildPrintModel(input);
  return layoutPrintedPdf(model, qrSymbolOf(model.qrUrl));
}
