/**
 * An ERP's integration with the e-CF service through @ecf/sdk, end to end: preflight an invoice,
 * issue it waiting for the printed representation, wait for its final state, download the PDF,
 * and receive the service's webhooks: verified with verifyWebhook, deduplicated by event id,
 * and never overwriting a final state without asking the status batch first.
 *
 *   ECF_BASE_URL=https://api.example.do ECF_API_KEY=… ECF_WEBHOOK_SECRET=whsec_… \
 *     node erp-integration.ts
 *
 * The webhook endpoint (this script's receiver URL) is configured in the portal, which shows its
 * secret once. Node 22.6+ runs this TypeScript file directly (Node 24: no flag needed).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import path from 'node:path';
import {
  EcfClient,
  EcfValidationError,
  verifyWebhook,
  WebhookVerificationError,
  type TDirectWebhookEvent,
  type TEnvironment,
  type TInputs,
} from '@ecf/sdk';

export type TErpConfig = {
  baseUrl: string;
  apiKey: string;
  environment: TEnvironment;
  /** The endpoint's secrets: the current one, and the previous one during a rotation. */
  webhookSecrets: string[];
  webhookPort: number;
  outputDirectory: string;
  log: (line: string) => void;
};

/** States after which a document never changes. */
const FINAL = new Set(['accepted', 'accepted_conditional', 'rejected', 'transmission_failed', 'cancelled']);

/**
 * The ERP's own tables, in memory here: its invoices by documentId, and the ids of the events it
 * has applied (in a database: a table with a unique constraint on the event id).
 */
export class ErpStore {
  readonly invoices = new Map<string, { encf: string; status: string }>();
  readonly appliedEvents = new Set<string>();
}

/**
 * The webhook receiver: verifies the signature over the raw bytes, records the event id first
 * (a duplicate answers 200 and changes nothing), then applies it.
 */
export function startWebhookReceiver(config: TErpConfig, ecf: EcfClient, store: ErpStore): Promise<Server> {
  const receive = async (rawBody: Buffer, headers: IncomingHttpHeaders): Promise<number> => {
    try {
      const { event, eventId } = await verifyWebhook<TDirectWebhookEvent>({
        rawBody,
        headers,
        secrets: config.webhookSecrets,
      });
      if (store.appliedEvents.has(eventId)) {
        config.log(`webhook ${event.type} ${eventId}: duplicate, ignored`);
        return 200;
      }
      store.appliedEvents.add(eventId);
      await applyEvent(config, ecf, store, event);
      return 200;
    } catch (error) {
      if (error instanceof WebhookVerificationError) {
        config.log(`webhook refused: ${error.reason}`);
        return 400;
      }
      config.log(`webhook failed: ${String(error)}`);
      return 500; // the service retries it later
    }
  };
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      void receive(Buffer.concat(chunks), request.headers).then((status) => response.writeHead(status).end());
    });
  });
  return new Promise((resolve) => server.listen(config.webhookPort, '127.0.0.1', () => resolve(server)));
}

/** A document's event: its status is a snapshot; a final state is only replaced by what the status batch says. */
async function applyEvent(config: TErpConfig, ecf: EcfClient, store: ErpStore, event: TDirectWebhookEvent) {
  const document = event.document;
  if (!document) return config.log(`webhook ${event.type}: ${event.data.message}`);
  const known = store.invoices.get(document.id);
  let status: string = document.status;
  if (known && FINAL.has(known.status) && status !== known.status) {
    const { found } = await ecf.statusBatch({ body: { documentReferences: [document.id] } });
    status = found[0]?.status ?? known.status;
  }
  store.invoices.set(document.id, { encf: document.encf, status });
  config.log(`webhook ${event.type} ${document.encf}: ${status}`);
}

/** Preflight, issue, wait for a final state and save the PDF of one invoice. */
export async function issueInvoice(
  config: TErpConfig,
  ecf: EcfClient,
  store: ErpStore,
  invoice: TInputs['submitDocument']['body'],
): Promise<{ documentId: string; status: string; pdfPath: string | null }> {
  try {
    const preflight = await ecf.submitDocument({ validate: 'true', body: invoice });
    config.log(`preflight ${preflight.encf}: ${preflight.status}, ${preflight.warnings.length} warnings`);
  } catch (error) {
    if (error instanceof EcfValidationError)
      for (const problem of error.errors) config.log(`  ${problem.path}: ${problem.code} ${problem.message}`);
    throw error;
  }
  // A lost answer is safe to send again: the same eNCF and content answer the same document.
  const issued = await ecf.submitDocument({ body: invoice }, { wait: 15 });
  const documentId = issued.documentId;
  if (!documentId) throw new Error('an issued document has its documentId');
  store.invoices.set(documentId, { encf: issued.encf, status: issued.status });
  config.log(`issued ${issued.encf}: ${issued.status} (documentId ${documentId})`);

  let status: string = issued.status;
  for (let attempt = 0; !FINAL.has(status) && attempt < 60; attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const { found } = await ecf.statusBatch({ body: { documentReferences: [documentId] } });
    status = found[0]?.status ?? status;
  }
  store.invoices.set(documentId, { encf: issued.encf, status });
  config.log(`final ${issued.encf}: ${status}`);
  if (status !== 'accepted' && status !== 'accepted_conditional')
    return { documentId, status, pdfPath: null };

  const pdf = await ecf.documentPdf({ documentReference: documentId });
  await mkdir(config.outputDirectory, { recursive: true });
  const pdfPath = path.join(config.outputDirectory, pdf.filename ?? `${issued.encf}.pdf`);
  await writeFile(pdfPath, await pdf.bytes());
  config.log(`saved ${path.basename(pdfPath)} (${pdf.contentType})`);
  return { documentId, status, pdfPath };
}

/** The example's run: the receiver, then one invoice. */
export async function runErpIntegration(config: TErpConfig, invoice: TInputs['submitDocument']['body']) {
  const ecf = new EcfClient({
    apiKey: config.apiKey,
    environment: config.environment,
    baseUrl: config.baseUrl,
  });
  const store = new ErpStore();
  const receiver = await startWebhookReceiver(config, ecf, store);
  const result = await issueInvoice(config, ecf, store, invoice);
  return { ...result, store, receiver, ecf };
}

/** A consumer invoice of today (Dominican time), numbered by the ERP. */
export function sampleInvoice(encf: string): TInputs['submitDocument']['body'] {
  const [year, month, day] = new Date(Date.now() - 4 * 3600_000).toISOString().slice(0, 10).split('-');
  return {
    type: 'E31',
    encf,
    sequenceExpirationDate: `31-12-${Number(year) + 1}`,
    issueDate: `${day}-${month}-${year}`,
    buyer: { rnc: '101672919', name: 'Ferretería Los Pinos SRL' },
    paymentType: 'card',
    incomeType: '01',
    lines: [
      { name: 'Cemento gris 42.5 kg', quantity: 10, unitPrice: '450.00', itbisRate: 18, itemKind: 'good' },
    ],
  };
}

if (import.meta.main) {
  const env = (name: string) =>
    process.env[name] ??
    (() => {
      throw new Error(`${name} is required`);
    })();
  const { receiver } = await runErpIntegration(
    {
      baseUrl: env('ECF_BASE_URL'),
      apiKey: env('ECF_API_KEY'),
      environment: (process.env['ECF_ENVIRONMENT'] ?? 'TesteCF') as TEnvironment,
      webhookSecrets: env('ECF_WEBHOOK_SECRET').split(','),
      webhookPort: Number(process.env['WEBHOOK_PORT'] ?? 8787),
      outputDirectory: process.env['OUTPUT_DIRECTORY'] ?? 'pdf',
      log: console.log,
    },
    sampleInvoice(process.env['ECF_ENCF'] ?? `E31${String(Date.now() % 10_000_000_000).padStart(10, '0')}`),
  );
  console.log('listening for webhooks; Ctrl+C to stop');
  process.once('SIGINT', () => receiver.close());
}
