import { createHash } from 'node:crypto';
import { zipSync, type Zippable } from 'fflate';
import type { Environment, TDatabase } from '@ecf/db';
import { buildRfceXml, signXml } from '@ecf/fiscal-core';
import { resolveDocumentCertificate, type TCertificateSource } from '../accounts/index.ts';
import { renderDocumentPdf } from '../documents/index.ts';
import {
  findCertificationItems,
  findCertificationRun,
  loadDocumentEvidence,
  readArtifactContent,
  readCertificationSetContent,
  storeRunEvidence,
  type TCertificationRunRow,
} from '../persistence/index.ts';
import { AppError } from '../shared/errors.ts';
import { leafOf, readSignedEcfTree } from '../shared/signed-ecf-tree.ts';
import { assertCertificationEnvironment } from './certification-guards.ts';
import { runViewOf } from './certification-views.ts';

export type TCertificationEvidence = {
  runId: string;
  fileName: string;
  contentType: 'application/zip';
  /** The ZIP, base64. */
  content: string;
  sha256: string;
  size: number;
  /** Whether the ZIP is the run's final evidence (stored once, write-once) or a snapshot of a run in progress. */
  final: boolean;
};

/** Which files of a run's evidence a caller wants (the Partner's ZIP routes take one kind). */
export type TEvidenceSelection = 'all' | 'printed_pdfs' | 'consumer_invoices' | 'consumer_summaries';

const FINAL_RUN_STATES = new Set(['succeeded', 'failed', 'stopped']);

/**
 * `GET /{environment}/certificacion/{runId}/evidencia`: a ZIP with everything a run sent and
 * received — the set as uploaded, each signed e-CF (`xml/{RNC}{eNCF}.xml`), the signed RFCE summary
 * of each E32 below RD$250,000 (`rfce/`; rebuilt from the signed E32: building and RSA signing are
 * deterministic, so these are the bytes sent), every tax authority answer (`answers/`), the printed
 * PDF of each accepted e-CF (`pdf/`), the run (`run.json`) and `manifest.json` with each file's
 * SHA-256 and size. Once the run is final the ZIP is stored (write-once) and served as stored.
 */
export async function getCertificationEvidence(
  options: TCertificateSource & {
    database: TDatabase;
    tenantId: string;
    environment: Environment;
    runId: string;
    now: () => Date;
    selection?: TEvidenceSelection;
  },
): Promise<TCertificationEvidence> {
  assertCertificationEnvironment(options.environment);
  const run = await findCertificationRun(options.database, {
    runId: options.runId,
    tenantId: options.tenantId,
  });
  if (run === null) throw new AppError('NOT_FOUND', `No certification run ${options.runId} in this account.`);
  const selection = options.selection ?? 'all';
  const isFinal = FINAL_RUN_STATES.has(run.state);
  if (selection === 'all' && isFinal && run.evidenceArtifactId !== null) {
    const stored = await readArtifactContent(options.database, run.evidenceArtifactId);
    return bodyOf(run, stored.content, stored.sha256, true, selection);
  }
  const zip = await buildRunZip(options, run, selection);
  const sha256 = createHash('sha256').update(zip).digest('hex');
  if (selection === 'all' && isFinal) {
    const id = await storeRunEvidence(options.database, {
      runId: run.id,
      tenantId: run.tenantId,
      content: zip,
      sha256,
      now: options.now(),
    });
    const stored = await readArtifactContent(options.database, id);
    return bodyOf(run, stored.content, stored.sha256, true, selection);
  }
  return bodyOf(run, zip, sha256, false, selection);
}

function bodyOf(
  run: TCertificationRunRow,
  content: Uint8Array,
  sha256: string,
  final: boolean,
  selection: TEvidenceSelection,
): TCertificationEvidence {
  const suffix = selection === 'all' ? 'evidencia' : selection.replace('_', '-');
  return {
    runId: run.id,
    fileName: `certificacion-${run.part}-${suffix}-${run.id}.zip`,
    contentType: 'application/zip',
    content: Buffer.from(content).toString('base64'),
    sha256,
    size: content.byteLength,
    final,
  };
}

const RFCE_THRESHOLD = 250_000;

async function buildRunZip(
  options: TCertificateSource & { database: TDatabase; now: () => Date },
  run: TCertificationRunRow,
  selection: TEvidenceSelection,
): Promise<Uint8Array> {
  const { database } = options;
  const items = await findCertificationItems(database, run.id);
  const files: Array<{ name: string; content: Uint8Array; contentType: string }> = [];
  const add = (name: string, content: Uint8Array | string, contentType: string) =>
    files.push({
      name,
      content: typeof content === 'string' ? Buffer.from(content, 'utf8') : content,
      contentType,
    });
  const wants = (kind: TEvidenceSelection) => selection === 'all' || selection === kind;
  if (selection === 'all') {
    add('run.json', `${JSON.stringify(runViewOf(run, items), null, 2)}\n`, 'application/json');
    if (run.setId !== null) {
      const content = await readCertificationSetContent(database, run.setId);
      const isZip = content[0] === 0x50 && content[1] === 0x4b;
      add(
        `set/${isZip ? 'workbook.xlsx' : 'rows.json'}`,
        content,
        isZip ? 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' : 'application/json',
      );
    }
  }
  const signer = signerOf(options, run.tenantId);
  for (const item of items) {
    if (item.documentId === null) continue;
    const evidence = await loadDocumentEvidence(database, {
      tenantId: run.tenantId,
      documentId: item.documentId,
    });
    if (evidence === null) continue;
    const { document, artifacts } = evidence;
    const { signed, base, isConsumerInvoice, isAccepted } = factsOf(evidence);
    if (
      signed !== undefined &&
      (selection === 'all' || (selection === 'consumer_invoices' && isConsumerInvoice && isAccepted))
    )
      add(`xml/${base}.xml`, signed.content, 'application/xml');
    if (selection === 'all') {
      artifacts
        .filter((artifact) => artifact.kind === 'taxauth_response')
        .forEach((artifact, index) =>
          add(
            `answers/${document.encf}-${String(index + 1).padStart(2, '0')}.json`,
            artifact.content,
            artifact.contentType,
          ),
        );
    }
    if (wants('consumer_summaries')) {
      const summary = await summaryOf(evidence, signer);
      if (summary !== undefined) add(`rfce/${base}.xml`, summary, 'application/xml');
    }
    if (wants('printed_pdfs') && isAccepted && signed !== undefined) {
      const pdf = await renderDocumentPdf({ database, document });
      add(`pdf/${pdf.fileName}`, pdf.content, 'application/pdf');
    }
  }
  const manifest = {
    format: 'ecf-certification-evidence/1',
    runId: run.id,
    caseId: run.caseId,
    part: run.part,
    state: run.state,
    selection,
    generatedAt: options.now().toISOString(),
    files: files.map((file) => ({
      name: file.name,
      contentType: file.contentType,
      size: file.content.byteLength,
      sha256: createHash('sha256').update(file.content).digest('hex'),
    })),
  };
  const zippable: Zippable = {};
  for (const file of files) zippable[file.name] = file.content;
  zippable['manifest.json'] = Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`, 'utf8');
  // A fixed time for every entry: the same files make the same ZIP bytes.
  return zipSync(zippable, { mtime: new Date('2000-01-01T00:00:00Z') });
}

type TDocumentEvidence = NonNullable<Awaited<ReturnType<typeof loadDocumentEvidence>>>;

/** What a run's files need to know of one receipt: its signed XML and tree, its file name, its kind. */
function factsOf({ document, artifacts }: TDocumentEvidence) {
  const signed = artifacts.find((artifact) => artifact.kind === 'signed_xml');
  const tree = signed === undefined ? undefined : readSignedEcfTree(signed.content.toString('utf8'));
  const rnc = tree === undefined ? '' : (leafOf(tree.ECF, ['Encabezado', 'Emisor', 'RNCEmisor']) ?? '');
  return {
    signed,
    tree,
    /** `{RNCEmisor}{eNCF}`: the name the tax authority's portal asks for. */
    base: `${rnc}${document.encf}`,
    isConsumerInvoice: document.type === 32 && Number(document.totalAmount) < RFCE_THRESHOLD,
    isAccepted: document.status === 'accepted' || document.status === 'accepted_conditional',
  };
}

type TSigner = () => Promise<Parameters<typeof signXml>[1] | undefined>;

/** The account's certificate, resolved once for a whole ZIP (undefined without a certificate source). */
function signerOf(options: TCertificateSource & { database: TDatabase }, tenantId: string): TSigner {
  let resolving: Promise<Parameters<typeof signXml>[1] | undefined> | undefined;
  return () => {
    resolving ??= (async () => {
      if (options.keyring === undefined && options.loadCertificate === undefined) return undefined;
      const resolved = await resolveDocumentCertificate({
        ...options,
        tenantId,
        step: 'certificationEvidence',
      });
      return resolved.ok ? resolved.certificate : undefined;
    })();
    return resolving;
  };
}

/** The signed RFCE summary of a consumer invoice, rebuilt as it was sent; undefined for any other receipt. */
async function summaryOf(evidence: TDocumentEvidence, signer: TSigner): Promise<string | undefined> {
  const { tree, isConsumerInvoice } = factsOf(evidence);
  const securityCode = evidence.document.securityCode;
  if (!isConsumerInvoice || tree === undefined || securityCode === null) return undefined;
  const certificate = await signer();
  const summary = buildRfceXml(tree, { securityCode });
  return certificate !== undefined && summary.success ? signXml(summary.data, certificate).xml : undefined;
}

export type TCertificationRunFile = { fileName: string; content: Uint8Array };

/**
 * One file of a run's consumer-invoice ZIPs (the Partner's `?encf=`): the signed E32 of an accepted
 * consumer invoice below RD$250,000 (`consumer_invoices`), or the signed RFCE summary sent for one
 * (`consumer_summaries`), named `{RNCEmisor}{eNCF}.xml` — read from that one receipt, no ZIP built.
 * NOT_FOUND for another account's run or when the run has no such file for that eNCF.
 */
export async function getCertificationRunFile(
  options: TCertificateSource & {
    database: TDatabase;
    tenantId: string;
    environment: Environment;
    runId: string;
    selection: 'consumer_invoices' | 'consumer_summaries';
    encf: string;
  },
): Promise<TCertificationRunFile> {
  assertCertificationEnvironment(options.environment);
  const run = await findCertificationRun(options.database, {
    runId: options.runId,
    tenantId: options.tenantId,
  });
  if (run === null) throw new AppError('NOT_FOUND', `No certification run ${options.runId} in this account.`);
  const absent = () =>
    new AppError(
      'NOT_FOUND',
      `No ${options.selection === 'consumer_invoices' ? 'consumer invoice' : 'summary'} ${options.encf} in this run.`,
      { details: { runId: run.id, encf: options.encf } },
    );
  const item = (await findCertificationItems(options.database, run.id)).find(
    (row) => row.encf === options.encf && row.documentId !== null,
  );
  if (item === undefined || item.documentId === null) throw absent();
  const evidence = await loadDocumentEvidence(options.database, {
    tenantId: run.tenantId,
    documentId: item.documentId,
  });
  if (evidence === null) throw absent();
  const { signed, base, isConsumerInvoice, isAccepted } = factsOf(evidence);
  if (options.selection === 'consumer_invoices') {
    if (signed === undefined || !isConsumerInvoice || !isAccepted) throw absent();
    return { fileName: `${base}.xml`, content: signed.content };
  }
  const summary = await summaryOf(evidence, signerOf(options, run.tenantId));
  if (summary === undefined) throw absent();
  return { fileName: `${base}.xml`, content: Buffer.from(summary, 'utf8') };
}
