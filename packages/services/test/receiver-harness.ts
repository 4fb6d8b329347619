/**
 * Test support for receiver delivery (not exported by the package; longer than ~300 lines because
 * the buyer endpoint plays every receiver behaviour the tests need): a local buyer endpoint
 * (node:http on port 0) that plays the receiver side of FACTS §2 in several ways, the simulator
 * with a directory pointing at it, and accepted documents with their signed XML.
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { artifactData, seedDocument, seedTenant, type Environment } from '@ecf/db';
import { createTestDatabase, openTestDatabase } from '@ecf/db/testing';
import {
  buildArecfXml,
  signXml,
  verifyXmlSignature,
  type TNotReceivedReason,
  type TSigningCertificate,
} from '@ecf/fiscal-core';
import { createTaxauthClients } from '@ecf/taxauth-client';
import { startSimulator } from '@ecf/taxauth-sim';
import type { TDeliverToReceiverOptions } from '../src/receiver-delivery/index.ts';
import { loadXsdValidators } from '@ecf/config';
import {
  buildEcfXml,
  certificateFor,
  createClock,
  newEncf,
  TEST_XSD_DIRECTORY,
} from './transmission-harness.ts';

/** How the buyer behind an RNC answers. */
export type TBuyerMode =
  | { kind: 'received' }
  | { kind: 'not_received'; reason: TNotReceivedReason }
  | { kind: 'hang' }
  | { kind: 'http'; status: number; body?: string }
  | { kind: 'foreign_signer'; signerRnc: string }
  | { kind: 'other_encf' }
  | { kind: 'tampered' };

/** One request the buyer endpoint received. */
export type TBuyerRequest = {
  rnc: string;
  path: string;
  contentLength: string | undefined;
  transferEncoding: string | undefined;
  authorization: string | undefined;
  fileName: string | undefined;
  bodyLength: number;
};

/** `dd-MM-yyyy HH:mm:ss` in Dominican time (UTC-4). */
function dominicanDateTime(date: Date): string {
  const shifted = new Date(date.getTime() - 4 * 3600_000).toISOString();
  return `${shifted.slice(8, 10)}-${shifted.slice(5, 7)}-${shifted.slice(0, 4)} ${shifted.slice(11, 19)}`;
}

/** A signed ARECF as a buyer would answer it. */
export function signedArecf(input: {
  rncEmisor: string;
  rncComprador: string;
  encf: string;
  notReceivedReason?: TNotReceivedReason;
  signer?: TSigningCertificate;
}): string {
  const built = buildArecfXml({
    rncEmisor: input.rncEmisor,
    rncComprador: input.rncComprador,
    encf: input.encf,
    estado: input.notReceivedReason === undefined ? 'received' : 'not_received',
    ...(input.notReceivedReason === undefined ? {} : { notReceivedReason: input.notReceivedReason }),
    acknowledgedAt: dominicanDateTime(new Date()),
  });
  if (!built.success) throw new Error(built.issues.map((issue) => issue.message).join('; '));
  return signXml(built.data, input.signer ?? certificateFor(input.rncComprador)).xml;
}

function tag(xml: string, name: string): string {
  return new RegExp(`<${name}>([^<]*)</${name}>`).exec(xml)?.[1] ?? '';
}

/** The buyer endpoint. Paths: `/{rnc}/fe/recepcion/api/ecf`, `/{rnc}/fe/autenticacion/api/{semilla,validacioncertificado}`. */
export async function startBuyerEndpoint() {
  const modes = new Map<string, TBuyerMode>();
  const requests: TBuyerRequest[] = [];
  const tokens = new Set<string>();
  const requireToken = new Set<string>();
  const sockets = new Set<Socket>();
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const [, rnc = '', ...rest] = (request.url ?? '').split('/');
      const path = `/${rest.join('/')}`.toLowerCase();
      const fileName = /filename="([^"]+)"/.exec(body)?.[1];
      requests.push({
        rnc,
        path,
        contentLength: request.headers['content-length'],
        transferEncoding: request.headers['transfer-encoding'],
        authorization: request.headers.authorization,
        fileName,
        bodyLength: Buffer.byteLength(body),
      });
      if (path === '/fe/autenticacion/api/semilla') {
        response.writeHead(200, { 'content-type': 'application/xml' });
        response.end(
          `<?xml version="1.0" encoding="utf-8"?><SemillaModel xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema"><valor>${randomBytes(32).toString('base64')}</valor><fecha>2026-04-01T10:00:00.0000000-04:00</fecha></SemillaModel>`,
        );
        return;
      }
      if (path === '/fe/autenticacion/api/validacioncertificado') {
        const xml = body.slice(
          body.indexOf('<SemillaModel'),
          body.indexOf('</SemillaModel>') + '</SemillaModel>'.length,
        );
        if (!verifyXmlSignature(xml).valid) {
          response.writeHead(400, { 'content-type': 'text/plain' });
          response.end('Firma del certificado invalida');
          return;
        }
        const token = randomBytes(16).toString('hex');
        tokens.add(token);
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(
          JSON.stringify({ token, expira: '2099-01-01T00:00:00Z', expedido: '2026-01-01T00:00:00Z' }),
        );
        return;
      }
      if (path !== '/fe/recepcion/api/ecf') {
        response.writeHead(404).end();
        return;
      }
      if (
        requireToken.has(rnc) &&
        !tokens.has((request.headers.authorization ?? '').replace(/^bearer\s+/i, ''))
      ) {
        response.writeHead(401).end();
        return;
      }
      const mode = modes.get(rnc) ?? { kind: 'received' };
      if (mode.kind === 'hang') return;
      if (mode.kind === 'http') {
        response.writeHead(mode.status, { 'content-type': 'text/plain' });
        response.end(mode.body ?? '');
        return;
      }
      const ecf = body.slice(body.indexOf('<ECF'), body.indexOf('</ECF>') + '</ECF>'.length);
      const parties = {
        rncEmisor: tag(ecf, 'RNCEmisor'),
        rncComprador: tag(ecf, 'RNCComprador'),
        encf: tag(ecf, 'eNCF'),
      };
      let answer: string;
      if (mode.kind === 'not_received') answer = signedArecf({ ...parties, notReceivedReason: mode.reason });
      else if (mode.kind === 'foreign_signer')
        answer = signedArecf({ ...parties, signer: certificateFor(mode.signerRnc) });
      else if (mode.kind === 'other_encf') answer = signedArecf({ ...parties, encf: newEncf('31') });
      else if (mode.kind === 'tampered')
        answer = signedArecf(parties).replace(
          '<Estado>0</Estado>',
          '<Estado>1</Estado><CodigoMotivoNoRecibido>1</CodigoMotivoNoRecibido>',
        );
      else answer = signedArecf(parties);
      response.writeHead(200, { 'content-type': 'application/xml' });
      response.end(answer);
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    baseUrl,
    modes,
    requests,
    requireToken,
    /** The host a directory entry publishes for `rnc`. */
    hostOf: (rnc: string) => `${baseUrl}/${rnc}`,
    receptionsOf: (rnc: string) =>
      requests.filter((request) => request.rnc === rnc && request.path === '/fe/recepcion/api/ecf'),
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Buyer RNCs of the directory, one per behaviour the tests need (9 digits: company certificates). */
export const BUYERS = {
  received: '201000001',
  notReceived: '201000002',
  hang: '201000003',
  foreignSigner: '201000004',
  otherEncf: '201000005',
  serverError: '201000006',
  refused: '201000007',
  authenticated: '201000008',
  tampered: '201000009',
  /** Not in the directory. */
  absent: '209999999',
} as const;

export type TReceiverHarness = Awaited<ReturnType<typeof openReceiverHarness>>;

/** App database, simulator whose directory points at the buyer endpoint, clock, tenant and delivery options. */
export async function openReceiverHarness(options: { timeoutMs?: number } = {}) {
  const buyer = await startBuyerEndpoint();
  buyer.modes.set(BUYERS.notReceived, { kind: 'not_received', reason: 'buyer_rnc_mismatch' });
  buyer.modes.set(BUYERS.hang, { kind: 'hang' });
  buyer.modes.set(BUYERS.foreignSigner, { kind: 'foreign_signer', signerRnc: '209000001' });
  buyer.modes.set(BUYERS.otherEncf, { kind: 'other_encf' });
  buyer.modes.set(BUYERS.serverError, { kind: 'http', status: 503 });
  buyer.modes.set(BUYERS.refused, { kind: 'http', status: 400, body: 'XML no valido' });
  buyer.modes.set(BUYERS.tampered, { kind: 'tampered' });
  buyer.requireToken.add(BUYERS.authenticated);

  const app = await openTestDatabase();
  const simulatorDatabase = await createTestDatabase({ migrated: false });
  const directory = Object.entries(BUYERS)
    .filter(([name]) => name !== 'absent')
    .map(([name, rnc]) => ({
      rnc,
      name: `Comprador ${name}`,
      receptionUrl: buyer.hostOf(rnc),
      ...(rnc === BUYERS.authenticated ? { authenticationUrl: buyer.hostOf(rnc) } : {}),
    }));
  const simulator = await startSimulator({
    databaseUrl: simulatorDatabase.url,
    xsdDirectory: TEST_XSD_DIRECTORY,
    logLevel: 'silent',
    processingDelayMs: 0,
    port: 0,
    directory,
  });
  const xsdValidators = await loadXsdValidators(TEST_XSD_DIRECTORY);
  const clock = createClock();
  const clientFor = createTaxauthClients({
    baseUrls: { ecf: simulator.baseUrl, fc: simulator.baseUrl, status: simulator.baseUrl },
    timeoutMs: 2000,
  });
  const tenant = await seedTenant(app.database);
  const certificate = certificateFor(tenant.rnc);
  const delivery: TDeliverToReceiverOptions = {
    clientFor,
    loadCertificate: async () => certificate,
    xsdValidators,
    now: clock.now,
    timeoutMs: options.timeoutMs ?? 1000,
  };

  return {
    database: app.database,
    buyer,
    simulator,
    clock,
    clientFor,
    tenant,
    certificate,
    xsdValidators,
    delivery,
    /** An accepted document (type 31 unless `encf` says otherwise) with its signed XML and a pending delivery. */
    async seedAcceptedDocument(input: {
      buyer: string;
      encf?: string;
      environment?: Environment;
      tenantId?: string;
      rnc?: string;
      withDelivery?: boolean;
      status?: 'accepted' | 'signed';
    }) {
      const encf = input.encf ?? newEncf('31');
      const rnc = input.rnc ?? tenant.rnc;
      const tenantId = input.tenantId ?? tenant.id;
      const signed = signXml(
        buildEcfXml({ rnc, encf, buyer: input.buyer }),
        input.rnc === undefined ? certificate : certificateFor(rnc),
      );
      const seeded = await seedDocument(app.database, {
        tenantId,
        encf,
        status: input.status ?? 'accepted',
        totalAmount: '236.00',
        ...(input.environment === undefined ? {} : { environment: input.environment }),
      });
      const document = await app.database.document.update({
        where: { id: seeded.id },
        data: { buyerRnc: input.buyer, securityCode: signed.signatureValue.slice(0, 6) },
      });
      await app.database.artifact.create({
        data: artifactData({
          tenantId,
          documentId: document.id,
          kind: 'signed_xml',
          contentType: 'application/xml',
          content: signed.xml,
        }),
      });
      if (input.withDelivery !== false && input.status !== 'signed')
        await app.database.receiverDelivery.create({
          data: { documentId: document.id, tenantId, status: 'pending' },
        });
      return { document, xml: signed.xml, rncEmisor: rnc };
    },
    async deliveryOf(documentId: string) {
      return app.database.receiverDelivery.findUniqueOrThrow({ where: { documentId } });
    },
    async eventsOf(documentId: string) {
      return app.database.documentEvent.findMany({ where: { documentId }, orderBy: { id: 'asc' } });
    },
    async close() {
      xsdValidators.dispose();
      await buyer.close();
      await simulator.close();
      await simulatorDatabase.drop();
      await app.close();
    },
  };
}
