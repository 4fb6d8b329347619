/**
 * A Partner onboarding one of its customers through @ecf/sdk: link the customer's account by the
 * Partner's own id (the RNC must be ACTIVE in the tax authority's registry), subscribe a webhook
 * endpoint, open a certificate-upload session for the customer's browser, upload the customer's
 * test set and create its certification case, then follow it by webhooks (verifyWebhook; events
 * deduplicated by id and ordered by stateVersion per resource).
 *
 *   ECF_BASE_URL=https://api.example.do ECF_PARTNER_KEY=… PARTNER_WEBHOOK_URL=https://erp.example.com/ecf \
 *     node partner-onboarding.ts <externalTenantId> <rnc> <legalName> <test-set.xlsx>
 *
 * The Partner key stays on the Partner's server; only the upload session's token goes to the
 * customer's browser, which calls `uploadCertificate` (or PUT uploadUrl) with it.
 */
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import {
  PartnerClient,
  verifyWebhook,
  WebhookVerificationError,
  type TInputs,
  type TPartnerWebhookEvent,
} from '@ecf/sdk';

export type TOnboardingConfig = {
  baseUrl: string;
  partnerKey: string;
  /** Where the service sends the Partner's events (public HTTPS in production). */
  webhookUrl: string;
  webhookPort: number;
  /** The origin of the Partner's page where the customer uploads the certificate. */
  browserOrigin: string;
  log: (line: string) => void;
};

export type TCustomer = {
  externalTenantId: string;
  rnc: string;
  legalName: string;
  /** The test set the tax authority generated for the RNC: the workbook, or its rows as JSON. */
  testSet: TInputs['uploadCertificationTestSet']['body'];
};

/**
 * The Partner's receiver: verified, deduplicated by event id, and per resource only a newer
 * stateVersion replaces what is known (events may arrive late or out of order).
 */
export class PartnerEvents {
  readonly applied = new Set<string>();
  readonly latest = new Map<string, TPartnerWebhookEvent>();
  readonly #waiters: Array<{
    match: (event: TPartnerWebhookEvent) => boolean;
    resolve: (event: TPartnerWebhookEvent) => void;
  }> = [];

  apply(event: TPartnerWebhookEvent): 'applied' | 'duplicate' | 'stale' {
    if (this.applied.has(event.id)) return 'duplicate';
    this.applied.add(event.id);
    const key = `${event.resource.kind}:${event.resource.id}:${event.environment}`;
    const known = this.latest.get(key);
    if (known && known.stateVersion >= event.stateVersion) return 'stale';
    this.latest.set(key, event);
    for (const waiter of [...this.#waiters])
      if (waiter.match(event)) {
        this.#waiters.splice(this.#waiters.indexOf(waiter), 1);
        waiter.resolve(event);
      }
    return 'applied';
  }

  /** The first event (from now on, or already applied) that matches. */
  next(match: (event: TPartnerWebhookEvent) => boolean, timeoutMs = 60_000): Promise<TPartnerWebhookEvent> {
    const seen = [...this.latest.values()].find(match);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no such event in time')), timeoutMs);
      this.#waiters.push({ match, resolve: (event) => (clearTimeout(timer), resolve(event)) });
    });
  }
}

export function startPartnerReceiver(
  config: TOnboardingConfig,
  secrets: () => string[],
  events: PartnerEvents,
): Promise<Server> {
  const receive = async (rawBody: Buffer, headers: IncomingHttpHeaders): Promise<number> => {
    try {
      const { event } = await verifyWebhook<TPartnerWebhookEvent>({ rawBody, headers, secrets: secrets() });
      const outcome = events.apply(event);
      const state = 'state' in event.resource ? ` ${event.resource.state}` : '';
      config.log(`event ${event.type} (${event.resource.kind}${state}, v${event.stateVersion}): ${outcome}`);
      return 200;
    } catch (error) {
      const refused = error instanceof WebhookVerificationError;
      config.log(`event refused: ${refused ? error.reason : String(error)}`);
      return refused ? 400 : 500;
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

/** Links the customer and prepares everything up to the certification case. */
export async function onboardCustomer(config: TOnboardingConfig, customer: TCustomer) {
  const partner = new PartnerClient({ partnerKey: config.partnerKey, baseUrl: config.baseUrl });
  const events = new PartnerEvents();
  let secrets: string[] = [];
  const receiver = await startPartnerReceiver(config, () => secrets, events);

  // The same URL again is the same endpoint (200, no secret): keep the secret of the first answer.
  const endpoint = await partner.createWebhookEndpoint({
    body: { name: 'Onboarding', url: config.webhookUrl },
  });
  if (endpoint.signingSecret) secrets = [endpoint.signingSecret];
  config.log(`webhook endpoint ${endpoint.endpoint.id}: ${endpoint.endpoint.status}`);

  // PUT by our own id: running this again links the same account.
  const linked = await partner.linkFiscalAccount({
    externalTenantId: customer.externalTenantId,
    body: { rnc: customer.rnc, legalName: customer.legalName },
  });
  const id = linked.fiscalAccount.id;
  config.log(`account ${id} for ${customer.externalTenantId} (RNC ${linked.fiscalAccount.rnc})`);

  const session = await partner.createCertificateUploadSession({
    id,
    body: { browserOrigin: config.browserOrigin },
  });
  config.log(
    `certificate upload session ${session.uploadId}, until ${session.expiresAt}: hand uploadUrl and uploadToken to the customer's page`,
  );

  const testSet = await partner.uploadCertificationTestSet({ id, body: customer.testSet });
  config.log(
    `test set ${testSet.testSet.testSetRef}: ${testSet.testSet.rows} rows for RNC ${testSet.testSet.issuerRnc}`,
  );
  const created = await partner.createCertificationCase({
    id,
    body: { testSetRef: testSet.testSet.testSetRef },
  });
  config.log(`certification case ${created.case.caseId}: ${created.case.state}, step ${created.case.step}`);
  return { partner, events, receiver, id, session, caseId: created.case.caseId };
}

if (import.meta.main) {
  const [externalTenantId, rnc, legalName, workbook] = process.argv.slice(2);
  const env = (name: string) =>
    process.env[name] ??
    (() => {
      throw new Error(`${name} is required`);
    })();
  if (!externalTenantId || !rnc || !legalName || !workbook)
    throw new Error('usage: partner-onboarding.ts <externalTenantId> <rnc> <legalName> <test-set.xlsx>');
  const config = {
    baseUrl: env('ECF_BASE_URL'),
    partnerKey: env('ECF_PARTNER_KEY'),
    webhookUrl: env('PARTNER_WEBHOOK_URL'),
    webhookPort: Number(process.env['WEBHOOK_PORT'] ?? 8788),
    browserOrigin: process.env['BROWSER_ORIGIN'] ?? 'https://erp.example.com',
    log: console.log,
  };
  const { events, caseId } = await onboardCustomer(config, {
    externalTenantId,
    rnc,
    legalName,
    testSet: { workbookBase64: (await readFile(workbook)).toString('base64') },
  });
  console.log('waiting for the certificate and the case to move (Ctrl+C to stop)');
  await events.next((event) => event.type === 'certificate.validated', 24 * 3600_000);
  await events.next(
    (event) => event.resource.kind === 'certification_case' && event.resource.id === caseId,
    24 * 3600_000,
  );
}
