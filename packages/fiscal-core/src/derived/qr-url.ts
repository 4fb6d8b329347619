import { compare, decimal, parseDecimal } from '../decimal/decimal.ts';

/**
 * The timbre (QR) URLs printed on the printed representation (FACTS §3.5; DGII Descripción Técnica p.42–44, 63–64).
 */

/** The tax authority's environments as the product names them. */
export type TDgiiEnvironment = 'TesteCF' | 'CerteCF' | 'eCF';

/** The URL path segment of each environment. */
export const ENVIRONMENT_PATH_SEGMENTS: Readonly<Record<TDgiiEnvironment, string>> = {
  TesteCF: 'testecf',
  CerteCF: 'certecf',
  eCF: 'ecf',
};

/** Consumer invoices (type 32) strictly below this total use the RFCE summary and the FC timbre. */
export const CONSUMER_INVOICE_SUMMARY_THRESHOLD = 250_000;
const THRESHOLD = decimal(`${CONSUMER_INVOICE_SUMMARY_THRESHOLD}.00`);

/** Values for the e-CF timbre; all strings exactly as written in the signed XML. */
export type TEcfTimbre = {
  environment: TDgiiEnvironment;
  rncEmisor: string;
  /** Ignored for types 43 and 47, which have no buyer. */
  rncComprador?: string;
  eNcf: string;
  /** `dd-MM-yyyy`. */
  fechaEmision: string;
  montoTotal: string;
  /** `FechaHoraFirma`, `dd-MM-yyyy HH:mm:ss`. */
  fechaFirma: string;
  codigoSeguridad: string;
};

/** Values for the consumer-invoice (FC) timbre. */
export type TConsumerTimbre = {
  environment: TDgiiEnvironment;
  rncEmisor: string;
  eNcf: string;
  montoTotal: string;
  codigoSeguridad: string;
};

/**
 * Percent-encodes the security code: every character outside `[A-Za-z0-9]` is a reserved character
 * in DGII's table (`+`→`%2B`, `/`→`%2F`, `=`→`%3D`, even `-`, `.` and `_`), written as upper-case hex.
 */
export function encodeSecurityCode(value: string): string {
  return value.replace(/[^A-Za-z0-9]/g, percentEncode);
}

/**
 * Encodes other parameter values like `encodeURIComponent` (space → `%20`, never `+`) but keeps
 * `:` literal, as DGII's own example URL writes the signature time (`10-10-2020%2009:00:00`).
 */
function encodeValue(value: string): string {
  return encodeURIComponent(value)
    .replace(/%3A/g, ':')
    .replace(/[!'()*]/g, percentEncode);
}

function percentEncode(character: string): string {
  return Array.from(
    Buffer.from(character, 'utf8'),
    (byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`,
  ).join('');
}

function query(parameters: ReadonlyArray<readonly [string, string, (value: string) => string]>): string {
  return parameters.map(([name, value, encode]) => `${name}=${encode(value)}`).join('&');
}

/** The type code (`31`, `43`...) of an eNCF such as `E430000000001`. */
function typeOfEncf(eNcf: string): string {
  return eNcf.slice(1, 3);
}

/**
 * `https://ecf.dgii.gov.do/{env}/ConsultaTimbre?RncEmisor=…&RncComprador=…&ENCF=…&FechaEmision=…&MontoTotal=…&FechaFirma=…&CodigoSeguridad=…`.
 * `RncComprador` is left out for types 43 and 47 (no buyer) and when no buyer RNC is given (e.g. a
 * foreign buyer identified by `IdentificadorExtranjero`).
 */
export function buildEcfTimbreUrl(timbre: TEcfTimbre): string {
  const type = typeOfEncf(timbre.eNcf);
  const includeBuyer =
    type !== '43' && type !== '47' && timbre.rncComprador !== undefined && timbre.rncComprador !== '';
  const parameters: Array<readonly [string, string, (value: string) => string]> = [
    ['RncEmisor', timbre.rncEmisor, encodeValue],
  ];
  if (includeBuyer) parameters.push(['RncComprador', timbre.rncComprador ?? '', encodeValue]);
  parameters.push(
    ['ENCF', timbre.eNcf, encodeValue],
    ['FechaEmision', timbre.fechaEmision, encodeValue],
    ['MontoTotal', timbre.montoTotal, encodeValue],
    ['FechaFirma', timbre.fechaFirma, encodeValue],
    ['CodigoSeguridad', timbre.codigoSeguridad, encodeSecurityCode],
  );
  return `https://ecf.dgii.gov.do/${ENVIRONMENT_PATH_SEGMENTS[timbre.environment]}/ConsultaTimbre?${query(parameters)}`;
}

/**
 * `https://fc.dgii.gov.do/{env}/ConsultaTimbreFC?RncEmisor=…&ENCF=…&MontoTotal=…&CodigoSeguridad=…` for a
 * consumer invoice below RD$250,000. DGII documents this service for `testecf` and `ecf` only; the
 * CerteCF URL is still built the same way so the certification flow can print it.
 */
export function buildConsumerTimbreUrl(timbre: TConsumerTimbre): string {
  const parameters = query([
    ['RncEmisor', timbre.rncEmisor, encodeValue],
    ['ENCF', timbre.eNcf, encodeValue],
    ['MontoTotal', timbre.montoTotal, encodeValue],
    ['CodigoSeguridad', timbre.codigoSeguridad, encodeSecurityCode],
  ]);
  return `https://fc.dgii.gov.do/${ENVIRONMENT_PATH_SEGMENTS[timbre.environment]}/ConsultaTimbreFC?${parameters}`;
}

/** True when a document is a consumer invoice (type 32) whose total is below RD$250,000. */
export function isConsumerInvoiceBelowThreshold(eNcf: string, montoTotal: string): boolean {
  const total = parseDecimal(montoTotal);
  if (total === null)
    throw new TypeError(`isConsumerInvoiceBelowThreshold: "${montoTotal}" is not a decimal.`);
  return typeOfEncf(eNcf) === '32' && compare(total, THRESHOLD) < 0;
}

/** The QR URL a document prints: the FC form for type 32 below RD$250,000, the e-CF form otherwise. */
export function buildTimbreUrl(timbre: TEcfTimbre): string {
  if (isConsumerInvoiceBelowThreshold(timbre.eNcf, timbre.montoTotal)) return buildConsumerTimbreUrl(timbre);
  return buildEcfTimbreUrl(timbre);
}
