/**
 * `@ecf/printing`, loaded on first use. Not a static import on purpose: the PDF writer (pdfkit and
 * its font data) is loaded only by a process that prints, and the compiler does not follow the
 * import into the package's sources from every workspace that type-checks `@ecf/services`. The shape below is checked against the package's own types by
 * printed-renderer.test.ts, so it cannot drift silently.
 */
import type { TDgiiEnvironment, TEcfDocument } from '@ecf/fiscal-core';

export type TPrintingModule = {
  renderPrintedRepresentation: (input: {
    document: TEcfDocument;
    securityCode: string;
    signedAt: string;
    qrUrl: string;
    environment: TDgiiEnvironment;
  }) => Promise<Buffer>;
  ECF_TYPE_NAMES: Readonly<Record<string, string>>;
  formatAmount: (amount: string) => string;
};

/** A variable, so the compiler does not follow the import into the package's sources. */
const PRINTING_PACKAGE: string = '@ecf/printing';
let printing: Promise<TPrintingModule> | undefined;

export function loadPrinting(): Promise<TPrintingModule> {
  printing ??= (import(PRINTING_PACKAGE) as Promise<TPrintingModule>).catch((error: unknown) => {
    printing = undefined;
    throw error;
  });
  return printing;
}
