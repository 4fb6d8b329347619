/**
 * Test support (not exported by the package): a simulator on its own test database, certificates,
 * signed documents built with fiscal-core, and multipart posting with fetch.
 */
import { OFFICIAL_XSD_DIRECTORY } from '@ecf/config';
import { createTestDatabase, type TTestDatabase } from '@ecf/db/testing';
import {
  buildAcecfXml,
  buildAnecfXml,
  createTestCertificate,
  loadCertificate,
  signForeignXml,
  signXml,
  type TAcecfInput,
  type TAnnulmentRange,
  type TSigningCertificate,
} from '@ecf/fiscal-core';
import { startSimulator } from '../src/app.ts';
import type { TSimulatorOptions } from '../src/options.ts';

/** The official XSDs, straight from the shared folder (tests never read config/xsd). */
export const TEST_XSD_DIRECTORY = OFFICIAL_XSD_DIRECTORY;

export type TRunningSimulator = { baseUrl: string; close(): Promise<void> };

export type TSimulatorHarness = {
  database: TTestDatabase;
  simulator: TRunningSimulator;
  baseUrl: string;
  /** Starts another simulator process-equivalent on the same database and schema. */
  startAnother(options?: Partial<TSimulatorOptions>): Promise<TRunningSimulator>;
  /** Stops the current simulator and starts a fresh one on the same database/schema. */
  restart(options?: Partial<TSimulatorOptions>): Promise<void>;
  close(): Promise<void>;
};

export async function openSimulator(options: Partial<TSimulatorOptions> = {}): Promise<TSimulatorHarness> {
  const database = await createTestDatabase({ migrated: false });
  const start = (extra: Partial<TSimulatorOptions> = {}) =>
    startSimulator({
      databaseUrl: database.url,
      xsdDirectory: TEST_XSD_DIRECTORY,
      logLevel: 'silent',
      processingDelayMs: 0,
      ...options,
      ...extra,
      port: 0,
    });
  let simulator: TRunningSimulator = await start();
  const others: TRunningSimulator[] = [];
  const harness: TSimulatorHarness = {
    database,
    simulator,
    baseUrl: simulator.baseUrl,
    async startAnother(extra) {
      const other = await start(extra);
      others.push(other);
      return other;
    },
    async restart(extra) {
      await simulator.close();
      simulator = await start(extra);
      harness.simulator = simulator;
      harness.baseUrl = simulator.baseUrl;
    },
    async close() {
      for (const other of others) await other.close();
      await simulator.close();
      await database.drop();
    },
  };
  return harness;
}

export type TIssuer = {
  rnc: string;
  certificate: TSigningCertificate;
  p12: Buffer;
  password: string;
  privateKeyPem: string;
  certificatePem: string;
};

const issuers = new Map<string, TIssuer>();

/** A throwaway signing certificate whose holder id is `rnc` (cached: RSA generation takes time). */
export function issuerFor(rnc: string, options: { validTo?: Date; validFrom?: Date } = {}): TIssuer {
  const key = `${rnc}|${options.validFrom?.toISOString() ?? ''}|${options.validTo?.toISOString() ?? ''}`;
  const cached = issuers.get(key);
  if (cached !== undefined) return cached;
  const generated = createTestCertificate({ rnc, commonName: `Firmante ${rnc}`, ...options });
  const loaded = loadCertificate({
    privateKeyPem: generated.privateKeyPem,
    certificatePem: generated.certificatePem,
  });
  if (!loaded.success) throw new Error(loaded.issues.map((issue) => issue.message).join('; '));
  const issuer = { rnc, certificate: loaded.data, ...generated };
  issuers.set(key, issuer);
  return issuer;
}

/** POSTs `xml` as the multipart file part `xml` named `fileName`. */
export async function postXml(
  url: string,
  xml: string,
  options: { fileName?: string; token?: string; field?: string; accept?: string } = {},
): Promise<Response> {
  const form = new FormData();
  form.append(
    options.field ?? 'xml',
    new Blob([xml], { type: 'text/xml' }),
    options.fileName ?? 'documento.xml',
  );
  const headers: Record<string, string> = { accept: options.accept ?? 'application/json' };
  if (options.token !== undefined) headers['authorization'] = `bearer ${options.token}`;
  return fetch(url, { method: 'POST', body: form, headers });
}

/** The JSON body of an answer, untyped as `inject().json()` is (the assertions check its shape). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read untyped HTTP answers
export async function jsonOf(response: Response): Promise<any> {
  return response.json();
}

/** GET with a bearer token. */
export async function getWithToken(url: string, token: string | undefined): Promise<Response> {
  return fetch(url, {
    headers: {
      accept: 'application/json',
      ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
    },
  });
}

/** Seed → signed seed → token, as a client does. */
export async function authenticate(baseUrl: string, environment: string, issuer: TIssuer): Promise<string> {
  const seed = await fetch(`${baseUrl}/${environment}/autenticacion/api/autenticacion/semilla`);
  if (seed.status !== 200) throw new Error(`seed answered ${seed.status}`);
  const signed = signForeignXml(await seed.text(), issuer.certificate);
  if (!signed.success) throw new Error('cannot sign the seed');
  const answer = await postXml(
    `${baseUrl}/${environment}/autenticacion/api/autenticacion/validarsemilla`,
    signed.data.xml,
    { fileName: 'semilla.xml' },
  );
  if (answer.status !== 200)
    throw new Error(`validarsemilla answered ${answer.status}: ${await answer.text()}`);
  return ((await answer.json()) as { token: string }).token;
}

export type TEcfOptions = {
  rnc: string;
  encf: string;
  buyer?: string;
  lines?: number;
  /** Overrides the first line's `MontoItem` (squaring tests). */
  firstLineAmount?: string;
  fechaEmision?: string;
  vencimiento?: string;
  type?: '31' | '32';
};

/** A canonical, schema-valid e-CF 31 (or 32) with `lines` items at 100.00 + 18 % ITBIS. */
export function buildEcf(options: TEcfOptions): string {
  const lines = options.lines ?? 2;
  const type = options.type ?? '31';
  let items = '';
  for (let line = 1; line <= lines; line += 1) {
    const amount = line === 1 && options.firstLineAmount !== undefined ? options.firstLineAmount : '100.00';
    items +=
      `<Item><NumeroLinea>${line}</NumeroLinea><IndicadorFacturacion>1</IndicadorFacturacion>` +
      `<NombreItem>Artículo ${line} &amp; servicio</NombreItem><IndicadorBienoServicio>1</IndicadorBienoServicio>` +
      `<CantidadItem>1</CantidadItem><PrecioUnitarioItem>100.00</PrecioUnitarioItem><MontoItem>${amount}</MontoItem></Item>`;
  }
  const gravado = (lines * 100).toFixed(2);
  const itbis = (lines * 18).toFixed(2);
  const total = (lines * 118).toFixed(2);
  const vencimiento =
    type === '32'
      ? ''
      : `<FechaVencimientoSecuencia>${options.vencimiento ?? '31-12-2027'}</FechaVencimientoSecuencia>`;
  const buyer = options.buyer ?? '101672919';
  return (
    '<ECF><Encabezado><Version>1.0</Version>' +
    `<IdDoc><TipoeCF>${type}</TipoeCF><eNCF>${options.encf}</eNCF>${vencimiento}` +
    '<IndicadorMontoGravado>0</IndicadorMontoGravado><TipoIngresos>01</TipoIngresos><TipoPago>1</TipoPago></IdDoc>' +
    `<Emisor><RNCEmisor>${options.rnc}</RNCEmisor><RazonSocialEmisor>Empresa de Prueba, S.R.L.</RazonSocialEmisor>` +
    `<DireccionEmisor>Av. Winston Churchill 1099, Santo Domingo</DireccionEmisor><FechaEmision>${options.fechaEmision ?? '01-04-2026'}</FechaEmision></Emisor>` +
    `<Comprador><RNCComprador>${buyer}</RNCComprador><RazonSocialComprador>Cliente &amp; Asociados, S.A.</RazonSocialComprador></Comprador>` +
    `<Totales><MontoGravadoTotal>${gravado}</MontoGravadoTotal><MontoGravadoI1>${gravado}</MontoGravadoI1><ITBIS1>18</ITBIS1>` +
    `<TotalITBIS>${itbis}</TotalITBIS><TotalITBIS1>${itbis}</TotalITBIS1><MontoTotal>${total}</MontoTotal></Totales></Encabezado>` +
    `<DetallesItems>${items}</DetallesItems>` +
    '<FechaHoraFirma>01-04-2026 10:15:00</FechaHoraFirma></ECF>'
  );
}

/** A signed e-CF and the name a client gives its file. */
export function signedEcf(
  issuer: TIssuer,
  options: Omit<TEcfOptions, 'rnc'> & { rnc?: string },
): { xml: string; fileName: string; securityCode: string } {
  const rnc = options.rnc ?? issuer.rnc;
  const signed = signXml(buildEcf({ ...options, rnc }), issuer.certificate);
  return {
    xml: signed.xml,
    fileName: `${rnc}${options.encf}.xml`,
    securityCode: signed.signatureValue.slice(0, 6),
  };
}

/** A signed consumer-invoice summary (RFCE) of `total` (gravado 18 %). */
export function signedRfce(
  issuer: TIssuer,
  options: { encf: string; total?: number; securityCode?: string; buyer?: string },
): { xml: string; fileName: string } {
  const total = options.total ?? 118;
  const gravado = (total / 1.18).toFixed(2);
  const itbis = (total - Number(gravado)).toFixed(2);
  const buyer = options.buyer === undefined ? '' : `<RNCComprador>${options.buyer}</RNCComprador>`;
  const xml =
    '<RFCE><Encabezado><Version>1.0</Version>' +
    `<IdDoc><TipoeCF>32</TipoeCF><eNCF>${options.encf}</eNCF><TipoIngresos>01</TipoIngresos><TipoPago>1</TipoPago></IdDoc>` +
    `<Emisor><RNCEmisor>${issuer.rnc}</RNCEmisor><RazonSocialEmisor>Empresa de Prueba, S.R.L.</RazonSocialEmisor><FechaEmision>01-04-2026</FechaEmision></Emisor>` +
    `<Comprador>${buyer}</Comprador>` +
    `<Totales><MontoGravadoTotal>${gravado}</MontoGravadoTotal><MontoGravadoI1>${gravado}</MontoGravadoI1><TotalITBIS>${itbis}</TotalITBIS>` +
    `<TotalITBIS1>${itbis}</TotalITBIS1><MontoTotal>${total.toFixed(2)}</MontoTotal></Totales>` +
    `<CodigoSeguridadeCF>${options.securityCode ?? 'Ab1+Z/'}</CodigoSeguridadeCF></Encabezado></RFCE>`;
  return { xml: signXml(xml, issuer.certificate).xml, fileName: `${issuer.rnc}${options.encf}.xml` };
}

/** A signed commercial approval by `buyer`. */
export function signedAcecf(
  buyer: TIssuer,
  input: Omit<TAcecfInput, 'rncComprador' | 'approvedAt'> & { approvedAt?: string },
): string {
  const built = buildAcecfXml({ approvedAt: '02-04-2026 09:00:00', ...input, rncComprador: buyer.rnc });
  if (!built.success) throw new Error(built.issues.map((issue) => issue.message).join('; '));
  return signXml(built.data, buyer.certificate).xml;
}

/** A signed range annulment by `issuer`. */
export function signedAnecf(issuer: TIssuer, ranges: TAnnulmentRange[]): string {
  const built = buildAnecfXml({ rncEmisor: issuer.rnc, annulledAt: '02-04-2026 09:00:00', ranges });
  if (!built.success) throw new Error(built.issues.map((issue) => issue.message).join('; '));
  return signXml(built.data, issuer.certificate).xml;
}

/** Polls consultaresultado until the state is final (not "En Proceso"). */
export async function waitForResult(
  baseUrl: string,
  environment: string,
  token: string,
  trackId: string,
  timeoutMs = 5000,
): Promise<Record<string, unknown>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const response = await getWithToken(
      `${baseUrl}/${environment}/consultaresultado/api/consultas/estado?trackid=${trackId}`,
      token,
    );
    const body = (await response.json()) as Record<string, unknown>;
    if (body['codigo'] !== 3 || Date.now() > deadline) return body;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
