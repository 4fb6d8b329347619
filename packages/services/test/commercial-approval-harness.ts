/**
 * Test support for sending commercial approvals (not exported by the package): the transmission
 * harness (application database, the tax authority simulator), a supplier whose e-CF the simulator
 * really accepted, its received copy stored for our buyer tenant, and a local issuer endpoint
 * (node:http on port 0) that answers the ACECF dispatch in the ways the tests need.
 */
import { randomBytes, randomInt } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { loadXsdValidators } from '@ecf/config';
import { artifactData, type Environment, type TEnqueue, type TAnyJobRequest } from '@ecf/db';
import { signXml, verifyXmlSignature, type TXsdValidators } from '@ecf/fiscal-core';
import {
  buildEcfXml,
  certificateFor,
  newEncf,
  openTransmissionHarness,
  TEST_XSD_DIRECTORY,
} from './transmission-harness.ts';

/** How the issuer's commercial approval URL answers (chosen by the first path segment). */
export type TIssuerMode =
  | { kind: 'ok'; status?: number; body?: string }
  | { kind: 'http'; status: number; body?: string }
  | { kind: 'hang' }
  | { kind: 'reset' };

/** One request the issuer endpoint received (never its headers beyond what the tests check). */
export type TIssuerRequest = { mode: string; path: string; authorization: string | undefined; body: string };

/** The issuer endpoint: `/{mode}/fe/aprobacioncomercial/api/ecf`, `/{mode}/fe/autenticacion/api/{semilla,validacioncertificado}`. */
export async function startIssuerEndpoint() {
  const modes = new Map<string, TIssuerMode>();
  const requests: TIssuerRequest[] = [];
  const tokens = new Set<string>();
  const refuseAuthentication = new Set<string>();
  const sockets = new Set<Socket>();
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const [, mode = '', ...rest] = (request.url ?? '').split('/');
      const path = `/${rest.join('/')}`.toLowerCase();
      requests.push({ mode, path, authorization: request.headers.authorization, body });
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
        if (refuseAuthentication.has(mode) || !verifyXmlSignature(xml).valid) {
          response.writeHead(400, { 'content-type': 'text/plain' }).end('Firma del certificado invalida');
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
      if (path !== '/fe/aprobacioncomercial/api/ecf') {
        response.writeHead(404).end();
        return;
      }
      if (
        mode.startsWith('auth') &&
        !tokens.has((request.headers.authorization ?? '').replace(/^bearer\s+/i, ''))
      ) {
        response.writeHead(401).end();
        return;
      }
      const chosen = modes.get(mode) ?? { kind: 'ok' };
      if (chosen.kind === 'hang') return;
      if (chosen.kind === 'reset') {
        request.socket.destroy();
        return;
      }
      response.writeHead(chosen.kind === 'ok' ? (chosen.status ?? 200) : chosen.status, {
        'content-type': 'text/plain',
        'x-secret-header': 'never-kept',
      });
      response.end(chosen.body ?? '');
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const base = `http://127.0.0.1:${port}`;
  return {
    base,
    requests,
    /** The commercial approval host of `mode` (what the directory publishes as `urlAceptacion`). */
    urlOf: (mode: string) => `${base}/${mode}`,
    setMode: (mode: string, behaviour: TIssuerMode) => modes.set(mode, behaviour),
    refuseAuthentication: (mode: string) => refuseAuthentication.add(mode),
    /** Approval POSTs received for `mode`. */
    postsOf: (mode: string) =>
      requests.filter((item) => item.mode === mode && item.path === '/fe/aprobacioncomercial/api/ecf'),
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Jobs enqueued by the use-cases (kept in memory: the tests run the dispatch step by hand). */
export function recordingEnqueue(): { enqueue: TEnqueue; jobs: TAnyJobRequest[] } {
  const jobs: TAnyJobRequest[] = [];
  return {
    jobs,
    enqueue: async (requested) => {
      jobs.push(...requested);
    },
  };
}

const SIM_SEGMENT: Record<Environment, string> = { TesteCF: 'testecf', CerteCF: 'certecf', eCF: 'ecf' };

export async function openCommercialApprovalHarness() {
  const transmission = await openTransmissionHarness({ timeoutMs: 3000 });
  const issuer = await startIssuerEndpoint();
  const xsd: TXsdValidators = await loadXsdValidators(TEST_XSD_DIRECTORY);
  const { database, tenant, simulator } = transmission;

  async function registerIssuer(entry: { rnc: string; mode: string | null; authenticated?: boolean }) {
    const response = await fetch(`${simulator.baseUrl}/_sim/directory`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify([
        {
          rnc: entry.rnc,
          receptionUrl: `${issuer.base}/reception`,
          ...(entry.mode === null ? {} : { commercialApprovalUrl: issuer.urlOf(entry.mode) }),
          ...(entry.authenticated === true && entry.mode !== null
            ? { authenticationUrl: issuer.urlOf(entry.mode) }
            : {}),
        },
      ]),
    });
    if (response.status !== 204)
      throw new Error(`directory PUT answered ${response.status}: ${await response.text()}`);
  }

  /**
   * A received e-CF the simulator accepted: a supplier (a fresh RNC, its own certificate) sends it to
   * the simulator, then our buyer tenant's `inbound_documents` row and its `received_xml` copy are stored.
   */
  async function seedReceivedEcf(
    input: {
      environment?: Environment;
      buyerTenant?: { id: string; rnc: string };
      taxauthValidity?: unknown;
      mode?: string | null;
      authenticated?: boolean;
      sendToTaxauth?: boolean;
    } = {},
  ) {
    const environment = input.environment ?? 'TesteCF';
    const buyer = input.buyerTenant ?? tenant;
    const supplierRnc = `4${String(randomInt(0, 100_000_000)).padStart(8, '0')}`;
    const encf = newEncf('31');
    const signed = signXml(
      buildEcfXml({ rnc: supplierRnc, encf, buyer: buyer.rnc }),
      certificateFor(supplierRnc),
    ).xml;
    if (input.sendToTaxauth !== false) {
      await transmission
        .clientFor(environment)
        .forTaxpayer({ cacheKey: `supplier-${supplierRnc}`, certificate: certificateFor(supplierRnc) })
        .sendEcf({ xml: signed });
    }
    if (input.mode !== undefined || environment !== 'CerteCF')
      await registerIssuer({
        rnc: supplierRnc,
        mode: input.mode === undefined ? 'ok' : input.mode,
        ...(input.authenticated === undefined ? {} : { authenticated: input.authenticated }),
      });
    const receivedAt = new Date();
    const artifact = await database.artifact.create({
      data: {
        ...artifactData({
          tenantId: buyer.id,
          documentId: null,
          kind: 'received_xml',
          contentType: 'application/xml',
          content: signed,
        }),
        retainUntil: new Date(receivedAt.getTime() + 10 * 365 * 86_400_000),
      },
    });
    const inbound = await database.inboundDocument.create({
      data: {
        tenantId: buyer.id,
        environment,
        kind: 'ecf',
        status: 'received',
        issuerRnc: supplierRnc,
        issuerName: 'Empresa de Prueba, S.R.L.',
        buyerRnc: buyer.rnc,
        encf,
        ecfType: 31,
        issueDate: new Date('2026-04-01T00:00:00Z'),
        totalAmount: '236.00',
        fileName: `${supplierRnc}${encf}.xml`,
        xmlArtifactId: artifact.id,
        ...(input.taxauthValidity === undefined ? {} : { taxauthValidity: input.taxauthValidity as object }),
        approvalDeadline: new Date('2026-05-15T00:00:00Z'),
      },
    });
    return { inbound, supplierRnc, encf, signed, environment, simulatorSegment: SIM_SEGMENT[environment] };
  }

  return {
    ...transmission,
    issuer,
    xsd,
    registerIssuer,
    seedReceivedEcf,
    async close() {
      xsd.dispose();
      await issuer.close();
      await transmission.close();
    },
  };
}
