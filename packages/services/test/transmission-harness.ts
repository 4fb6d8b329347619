/**
 * Test support for transmission (not exported by the package): an application database, the tax
 * authority simulator on a database of its own, a movable clock, signed documents built with
 * fiscal-core, and a look into what the simulator received.
 */
import { randomInt } from 'node:crypto';
import { OFFICIAL_XSD_DIRECTORY } from '@ecf/config';
import { artifactData, createDatabaseClient, seedDocument, seedTenant, type TDatabase } from '@ecf/db';
import { createTestDatabase, openTestDatabase } from '@ecf/db/testing';
import { createTestCertificate, loadCertificate, signXml, type TSigningCertificate } from '@ecf/fiscal-core';
import { createTaxauthClients } from '@ecf/taxauth-client';
import { startSimulator } from '@ecf/taxauth-sim';
import type { TTransmissionOptions } from '../src/transmission/index.ts';

/** The official XSDs, straight from the shared folder. */
export const TEST_XSD_DIRECTORY = OFFICIAL_XSD_DIRECTORY;

export type TFault = {
  environment?: string;
  service: string;
  fault:
    | 'connection_reset'
    | 'http_503'
    | 'timeout'
    | 'slow'
    | 'auth_down'
    | 'not_delegated'
    | 'reject'
    | 'accept_conditional'
    | 'lose_answer'
    | 'query_lag';
  delayMs?: number;
  count?: number;
};

/** A clock tests move by hand. */
export function createClock(start = new Date('2026-04-01T12:00:00Z')) {
  let current = start.getTime();
  return {
    now: () => new Date(current),
    advance(milliseconds: number) {
      current += milliseconds;
    },
    advanceSeconds(seconds: number) {
      current += seconds * 1000;
    },
  };
}

const certificates = new Map<string, TSigningCertificate>();

/** A throwaway signing certificate whose holder id is `rnc` (cached: RSA generation takes time). */
export function certificateFor(
  rnc: string,
  options: { validTo?: Date; validFrom?: Date } = {},
): TSigningCertificate {
  const key = `${rnc}|${options.validFrom?.toISOString() ?? ''}|${options.validTo?.toISOString() ?? ''}`;
  const cached = certificates.get(key);
  if (cached) return cached;
  const generated = createTestCertificate({ rnc, commonName: `Firmante ${rnc}`, ...options });
  const loaded = loadCertificate({
    privateKeyPem: generated.privateKeyPem,
    certificatePem: generated.certificatePem,
  });
  if (!loaded.success) throw new Error(loaded.issues.map((issue) => issue.message).join('; '));
  certificates.set(key, loaded.data);
  return loaded.data;
}

/** A fresh eNCF of a type (ten random digits). */
export function newEncf(type: '31' | '32' = '31'): string {
  return `E${type}${String(randomInt(1, 2_000_000_000)).padStart(10, '0')}`;
}

/** A canonical e-CF 31 or 32 with `lines` items at 100.00 + 18 % ITBIS (total 118.00 per line). */
export function buildEcfXml(options: { rnc: string; encf: string; buyer?: string; lines?: number }): string {
  const lines = options.lines ?? 2;
  const type = options.encf.slice(1, 3);
  let items = '';
  for (let line = 1; line <= lines; line += 1) {
    items +=
      `<Item><NumeroLinea>${line}</NumeroLinea><IndicadorFacturacion>1</IndicadorFacturacion>` +
      `<NombreItem>Artículo ${line} &amp; servicio</NombreItem><IndicadorBienoServicio>1</IndicadorBienoServicio>` +
      `<CantidadItem>1</CantidadItem><PrecioUnitarioItem>100.00</PrecioUnitarioItem><MontoItem>100.00</MontoItem></Item>`;
  }
  const gravado = (lines * 100).toFixed(2);
  const itbis = (lines * 18).toFixed(2);
  const total = (lines * 118).toFixed(2);
  const vencimiento =
    type === '32' ? '' : '<FechaVencimientoSecuencia>31-12-2027</FechaVencimientoSecuencia>';
  return (
    '<ECF><Encabezado><Version>1.0</Version>' +
    `<IdDoc><TipoeCF>${type}</TipoeCF><eNCF>${options.encf}</eNCF>${vencimiento}` +
    '<IndicadorMontoGravado>0</IndicadorMontoGravado><TipoIngresos>01</TipoIngresos><TipoPago>1</TipoPago></IdDoc>' +
    `<Emisor><RNCEmisor>${options.rnc}</RNCEmisor><RazonSocialEmisor>Empresa de Prueba, S.R.L.</RazonSocialEmisor>` +
    `<DireccionEmisor>Av. Winston Churchill 1099, Santo Domingo</DireccionEmisor><FechaEmision>01-04-2026</FechaEmision></Emisor>` +
    `<Comprador><RNCComprador>${options.buyer ?? '101672919'}</RNCComprador><RazonSocialComprador>Cliente &amp; Asociados, S.A.</RazonSocialComprador></Comprador>` +
    `<Totales><MontoGravadoTotal>${gravado}</MontoGravadoTotal><MontoGravadoI1>${gravado}</MontoGravadoI1><ITBIS1>18</ITBIS1>` +
    `<TotalITBIS>${itbis}</TotalITBIS><TotalITBIS1>${itbis}</TotalITBIS1><MontoTotal>${total}</MontoTotal></Totales></Encabezado>` +
    `<DetallesItems>${items}</DetallesItems>` +
    '<FechaHoraFirma>01-04-2026 10:15:00</FechaHoraFirma></ECF>'
  );
}

export type TTransmissionHarness = Awaited<ReturnType<typeof openTransmissionHarness>>;

/**
 * Everything a transmission test needs. `simulatorClock` (optional) is the simulator's own clock,
 * independent of `clock`, which the use-cases and the client's token cache read.
 */
export async function openTransmissionHarness(
  options: { simulatorNow?: () => Date; timeoutMs?: number; tokenTtlSeconds?: number } = {},
) {
  const app = await openTestDatabase();
  const simulatorDatabase = await createTestDatabase({ migrated: false });
  const simulator = await startSimulator({
    databaseUrl: simulatorDatabase.url,
    xsdDirectory: TEST_XSD_DIRECTORY,
    logLevel: 'silent',
    processingDelayMs: 0,
    port: 0,
    ...(options.simulatorNow === undefined ? {} : { now: options.simulatorNow }),
    ...(options.tokenTtlSeconds === undefined ? {} : { tokenTtlSeconds: options.tokenTtlSeconds }),
  });
  const simulatorQueries: TDatabase = createDatabaseClient({
    databaseUrl: simulatorDatabase.url,
    maxConnections: 2,
  });
  const clock = createClock();
  const clientFor = createTaxauthClients({
    baseUrls: { ecf: simulator.baseUrl, fc: simulator.baseUrl, status: simulator.baseUrl },
    timeoutMs: options.timeoutMs ?? 2000,
  });
  const tenant = await seedTenant(app.database);
  const certificate = certificateFor(tenant.rnc);
  const notifications: unknown[] = [];
  const transmission: TTransmissionOptions = {
    clientFor,
    loadCertificate: async () => certificate,
    now: clock.now,
    notifyOperator: (notification) => {
      notifications.push(notification);
    },
  };

  async function admin(method: 'POST' | 'DELETE', path: string, body?: unknown): Promise<void> {
    const response = await fetch(`${simulator.baseUrl}${path}`, {
      method,
      ...(body === undefined
        ? {}
        : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
    });
    if (!response.ok)
      throw new Error(`${method} ${path} answered ${response.status}: ${await response.text()}`);
  }

  return {
    database: app.database,
    /** The application database's URL (for child processes). */
    databaseUrl: app.url,
    simulator,
    clock,
    clientFor,
    tenant,
    certificate,
    transmission,
    notifications,
    addFault: (fault: TFault) => admin('POST', '/_sim/faults', { environment: 'testecf', ...fault }),
    clearFaults: () => admin('DELETE', '/_sim/faults'),
    /** How many submissions of `encf` the simulator recorded (e-CF and RFCE). */
    async receptionsOf(encf: string, kind?: 'ECF' | 'RFCE'): Promise<number> {
      const rows = await simulatorQueries.$queryRawUnsafe<{ count: bigint }[]>(
        `SELECT count(*) AS count FROM taxauth_sim.tracks WHERE encf = $1 AND ($2::text IS NULL OR kind = $2::text)`,
        encf,
        kind ?? null,
      );
      return Number(rows[0]?.count ?? 0);
    },
    /** A `signed` document with its signed XML artifact, as the signing step leaves it. */
    async seedSignedDocument(
      input: {
        encf?: string;
        buyer?: string;
        lines?: number;
        tenantId?: string;
        rnc?: string;
        signer?: TSigningCertificate;
      } = {},
    ) {
      const encf = input.encf ?? newEncf('31');
      const rnc = input.rnc ?? tenant.rnc;
      const lines = input.lines ?? 2;
      const signed = signXml(
        buildEcfXml({ rnc, encf, lines, ...(input.buyer === undefined ? {} : { buyer: input.buyer }) }),
        input.signer ?? certificate,
      );
      const tenantId = input.tenantId ?? tenant.id;
      const seeded = await seedDocument(app.database, {
        tenantId,
        encf,
        status: 'signed',
        totalAmount: (lines * 118).toFixed(2),
      });
      const document = await app.database.document.update({
        where: { id: seeded.id },
        data: { securityCode: signed.signatureValue.slice(0, 6) },
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
      return { document, xml: signed.xml };
    },
    async eventsOf(documentId: string) {
      return app.database.documentEvent.findMany({ where: { documentId }, orderBy: { id: 'asc' } });
    },
    async close() {
      await simulator.close();
      await simulatorQueries.$disconnect();
      await simulatorDatabase.drop();
      await app.close();
    },
  };
}
