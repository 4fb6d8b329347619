/**
 * Renders the printed representation (PDF) of an issued e-CF from its STORED signed XML, so the
 * paper always shows what was signed and sent. Shared by the API's PDF route and the buyer's link.
 *
 * The PDF is not stored: rendering a one-page e-CF takes ~40 ms of CPU, and artifacts are write-once
 * evidence of a closed set of kinds. A small in-process LRU (by signed-XML artifact, which never
 * changes) absorbs repeated downloads of the same document.
 */
import type { Document, TDatabase } from '@ecf/db';
import { formatDominicanDateTime, readEcfXml, type TEcfTree } from '@ecf/fiscal-core';
import { findSignedXmlArtifact } from '../persistence/index.ts';
import { AppError } from '../shared/errors.ts';
import { loadPrinting } from './printing-module.ts';

/** PDFs kept in memory (a one-page PDF is ~16 KB). */
const CACHE_ENTRIES = 64;
const cache = new Map<string, Buffer>();

export type TPrintedPdf = { content: Buffer; fileName: string };

/** `readEcfXml` of the stored signed XML with the values the renderer needs, or undefined when there is none. */
export async function loadSignedTree(database: TDatabase, document: Pick<Document, 'id' | 'tenantId'>) {
  const artifact = await findSignedXmlArtifact(database, {
    tenantId: document.tenantId,
    documentId: document.id,
  });
  if (!artifact) return undefined;
  const tree = readEcfXml(artifact.content.toString('utf8'));
  if (!tree) throw new Error(`document ${document.id}: the stored signed XML cannot be read back`);
  return { artifactId: artifact.id, tree };
}

/** A leaf of the signed tree (`Encabezado.Emisor.RNCEmisor`...), or undefined. */
export function textOf(tree: { ECF: TEcfTree }, ...path: string[]): string | undefined {
  let node: unknown = tree.ECF;
  for (const name of path) {
    if (typeof node !== 'object' || node === null || Array.isArray(node)) return undefined;
    node = (node as TEcfTree)[name];
  }
  return typeof node === 'string' ? node : undefined;
}

/**
 * The PDF of a document already known to be deliverable. No signed XML (a row that skipped
 * signing): 409 DOCUMENT_NOT_SIGNED, like the XML download.
 */
export async function renderDocumentPdf(options: {
  database: TDatabase;
  document: Document;
}): Promise<TPrintedPdf> {
  const { database, document } = options;
  const signed = await loadSignedTree(database, document);
  if (!signed || document.securityCode === null || document.qrUrl === null) {
    throw new AppError('DOCUMENT_NOT_SIGNED', `The document ${document.encf} has no signed XML.`, {
      details: { documentId: document.id, status: document.status },
    });
  }
  const rncEmisor = textOf(signed.tree, 'Encabezado', 'Emisor', 'RNCEmisor') ?? '';
  const fileName = `${rncEmisor}${document.encf}.pdf`;
  const cached = cache.get(signed.artifactId);
  if (cached) {
    cache.delete(signed.artifactId);
    cache.set(signed.artifactId, cached);
    return { content: cached, fileName };
  }
  // FechaHoraFirma exactly as signed; the stored instant (Dominican time) only for a tree without it.
  const signedAt =
    textOf(signed.tree, 'FechaHoraFirma') ??
    (document.signatureDate ? formatDominicanDateTime(document.signatureDate.getTime()) : '');
  const { renderPrintedRepresentation } = await loadPrinting();
  const content = await renderPrintedRepresentation({
    document: signed.tree,
    securityCode: document.securityCode,
    signedAt,
    qrUrl: document.qrUrl,
    environment: document.environment,
  });
  cache.set(signed.artifactId, content);
  if (cache.size > CACHE_ENTRIES) {
    const oldest = cache.keys().next().value;
    if (oldest !== undefined) cache.delete(oldest);
  }
  return { content, fileName };
}
