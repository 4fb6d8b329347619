import { createHash } from 'node:crypto';
import { zipSync, type Zippable } from 'fflate';
import type { TDatabase } from '@ecf/db';
import { BUYER_EMAIL_EVENT_TYPES } from '../buyer-email/buyer-email-rules.ts';
import { loadDocumentEvidence, type TEvidenceArtifact } from '../persistence/index.ts';
import { AppError } from '../shared/errors.ts';
import { isUuid } from '../shared/references.ts';

/** One file of the bundle as `manifest.json` lists it. */
export type TEvidenceFile = {
  name: string;
  contentType: string;
  size: number;
  sha256: string;
  /** For a stored artifact: which, and the SHA-256 stored with it (write-once; equal to `sha256`). */
  artifact?: { id: string; kind: string; createdAt: string; storedSha256: string };
};

export type TEvidenceManifest = {
  format: 'ecf-evidence-bundle/1';
  documentId: string;
  encf: string;
  environment: string;
  tenant: { id: string };
  generatedAt: string;
  files: TEvidenceFile[];
};

export type TEvidenceBundle = {
  /** `evidencia-{eNCF}-{environment}.zip`. */
  fileName: string;
  zip: Uint8Array;
  manifest: TEvidenceManifest;
};

const BUYER_EMAIL_TYPES = new Set<string>(Object.values(BUYER_EMAIL_EVENT_TYPES));

function extensionOf(contentType: string): string {
  if (/xml/i.test(contentType)) return 'xml';
  if (/json/i.test(contentType)) return 'json';
  if (/pdf/i.test(contentType)) return 'pdf';
  if (/^text\//i.test(contentType)) return 'txt';
  return 'bin';
}

/** Where an artifact goes in the bundle: the n-th of its kind (1-based). */
function nameOf(artifact: TEvidenceArtifact, n: number): string {
  const extension = extensionOf(artifact.contentType);
  const number = String(n).padStart(2, '0');
  switch (artifact.kind) {
    case 'signed_xml':
      return n === 1 ? 'signed.xml' : `signed-${n}.xml`;
    case 'receiver_acknowledgement':
      return n === 1 ? `arecf.${extension}` : `arecf-${n}.${extension}`;
    case 'taxauth_response':
      return `taxauth-answers/${number}.${extension}`;
    default:
      return `evidence/${number}-${artifact.kind}.${extension}`;
  }
}

function json(value: unknown): Buffer {
  return Buffer.from(`${JSON.stringify(value, null, 2)}\n`, 'utf8');
}

function sha256(content: Uint8Array): string {
  return createHash('sha256').update(content).digest('hex');
}

/**
 * The evidence bundle of one of a tenant's documents: a ZIP with the signed XML (`signed.xml`),
 * every tax-authority answer stored for it (`taxauth-answers/NN.*`), the buyer's ARECF
 * (`arecf.xml`) when there is one, other stored evidence, the buyer e-mail attempts
 * (`buyer-email-attempts.json`), the receiver delivery (`receiver-delivery.json`), the event log
 * (`events.json`), the document's data (`document.json`), and `manifest.json`: each file's name,
 * size and SHA-256, with the document id, eNCF and generation time. Another tenant's document (or
 * an id that is not a UUID) is NOT_FOUND, like an absent one.
 */
export async function buildEvidenceBundle(options: {
  database: TDatabase;
  tenantId: string;
  documentId: string;
  now?: () => Date;
}): Promise<TEvidenceBundle> {
  const notFound = () => new AppError('NOT_FOUND', 'No such document in this account.');
  if (!isUuid(options.documentId)) throw notFound();
  const evidence = await loadDocumentEvidence(options.database, {
    tenantId: options.tenantId,
    documentId: options.documentId.toLowerCase(),
  });
  if (evidence === null) throw notFound();
  const { document, artifacts, events, delivery } = evidence;
  const generatedAt = (options.now ?? (() => new Date()))();

  const entries: Array<{ file: Omit<TEvidenceFile, 'size' | 'sha256'>; content: Uint8Array }> = [];
  entries.push({
    file: { name: 'document.json', contentType: 'application/json' },
    content: json({
      id: document.id,
      tenantId: document.tenantId,
      environment: document.environment,
      type: `E${document.type}`,
      encf: document.encf,
      status: document.status,
      format: document.format,
      issueDate: document.issueDate.toISOString().slice(0, 10),
      totalAmount: document.totalAmount.toFixed(2),
      buyerRnc: document.buyerRnc,
      trackId: document.trackId,
      securityCode: document.securityCode,
      qrUrl: document.qrUrl,
      signatureDate: document.signatureDate?.toISOString() ?? null,
      attempts: document.attempts,
      contingencySince: document.contingencySince?.toISOString() ?? null,
      lastDeferredAt: document.lastDeferredAt?.toISOString() ?? null,
      lastError: document.lastError,
      taxauthMessages: document.taxauthMessages,
      submittedAt: document.submittedAt.toISOString(),
      updatedAt: document.updatedAt.toISOString(),
      submittedPayload: document.submittedPayload,
    }),
  });
  const counts = new Map<string, number>();
  for (const artifact of artifacts) {
    const n = (counts.get(artifact.kind) ?? 0) + 1;
    counts.set(artifact.kind, n);
    entries.push({
      file: {
        name: nameOf(artifact, n),
        contentType: artifact.contentType,
        artifact: {
          id: artifact.id,
          kind: artifact.kind,
          createdAt: artifact.createdAt.toISOString(),
          storedSha256: artifact.sha256,
        },
      },
      content: artifact.content,
    });
  }
  const eventsJson = events.map((event) => ({
    id: event.id,
    type: event.type,
    fromStatus: event.fromStatus,
    toStatus: event.toStatus,
    data: event.data,
    at: event.createdAt.toISOString(),
  }));
  entries.push({
    file: { name: 'buyer-email-attempts.json', contentType: 'application/json' },
    content: json(eventsJson.filter((event) => BUYER_EMAIL_TYPES.has(event.type))),
  });
  if (delivery !== null)
    entries.push({
      file: { name: 'receiver-delivery.json', contentType: 'application/json' },
      content: json({
        status: delivery.status,
        targetUrl: delivery.targetUrl,
        attempts: delivery.attempts,
        lastError: delivery.lastError,
        nextAttemptAt: delivery.nextAttemptAt?.toISOString() ?? null,
        arecfArtifactId: delivery.arecfArtifactId,
        reconciledAt: delivery.reconciledAt?.toISOString() ?? null,
        reconciliation: delivery.reconciliation,
        createdAt: delivery.createdAt.toISOString(),
        updatedAt: delivery.updatedAt.toISOString(),
      }),
    });
  entries.push({ file: { name: 'events.json', contentType: 'application/json' }, content: json(eventsJson) });

  const files: TEvidenceFile[] = entries.map(({ file, content }) => ({
    ...file,
    size: content.byteLength,
    sha256: sha256(content),
  }));
  const manifest: TEvidenceManifest = {
    format: 'ecf-evidence-bundle/1',
    documentId: document.id,
    encf: document.encf,
    environment: document.environment,
    tenant: { id: document.tenantId },
    generatedAt: generatedAt.toISOString(),
    files,
  };
  const zippable: Zippable = {};
  for (const { file, content } of entries) zippable[file.name] = [content, { mtime: generatedAt }];
  zippable['manifest.json'] = [json(manifest), { mtime: generatedAt }];
  return {
    fileName: `evidencia-${document.encf}-${document.environment}.zip`,
    zip: zipSync(zippable, { level: 6 }),
    manifest,
  };
}
