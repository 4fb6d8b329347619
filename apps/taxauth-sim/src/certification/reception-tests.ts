/**
 * The reception tests of certification (steps 8–11): the tax authority calls the taxpayer's
 * reception services on the test URLs it registered, exactly as an issuer delivers to a receiver
 * (FACTS §2; docs/receiving.md): the seed and certificate validation when an authentication URL is
 * registered, then an e-CF of the tax authority's test issuer to `/fe/recepcion/api/ecf`, whose
 * answer must be an ARECF signed by the taxpayer, or an ACECF of one of the taxpayer's own e-CF to
 * `/fe/aprobacioncomercial/api/ecf`, which must answer 200.
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { TAXAUTH_TEST_ISSUER_RNC } from '@ecf/certification-sets';
import {
  buildAcecfXml,
  createTestCertificate,
  dominicanDateOf,
  formatDominicanDateTime,
  formatTaxauthDate,
  loadCertificate,
  signEcfDocument,
  signForeignXml,
  signXml,
  verifyXmlSignature,
  type TEcfDocument,
  type TSigningCertificate,
  type TXsdValidators,
} from '@ecf/fiscal-core';
import { leafText, rootNameOf } from '../xml.ts';
import type { TServiceUrls } from './certification-store.ts';
import type { TCertificationPortal } from './portal.ts';

/** The tax authority's name, as its test issuer signs and issues. */
export const TAXAUTH_NAME = 'DIRECCION GENERAL DE IMPUESTOS INTERNOS';

/** One call the tax authority made to the taxpayer, as the report and the status show it. */
export type TReceptionTestCall = {
  readonly service: 'seed' | 'certificate_validation' | 'ecf_reception' | 'commercial_approval_reception';
  readonly url: string;
  /** Null when no HTTP answer arrived (refused connection, timeout, invalid URL). */
  readonly httpStatus: number | null;
  readonly outcome: 'ok' | 'failed';
  readonly detail: string;
};

export type TReceptionTestReport = { readonly ok: boolean; readonly calls: readonly TReceptionTestCall[] };

/** Longest answer read from a taxpayer's service. */
const MAX_ANSWER_BYTES = 2 * 1024 * 1024;
/** Longest an answer is waited for. */
const CALL_TIMEOUT_MS = 15_000;

const ZTokenAnswer = z.object({ token: z.string().min(1), expira: z.string(), expedido: z.string() });

let certificate: TSigningCertificate | undefined;

/**
 * The certificate the tax authority signs with in the reception tests: generated once per process
 * (on first use), held by the test issuer, so a receiver sees a signer that is the e-CF's issuer.
 */
export function taxAuthorityCertificate(): TSigningCertificate {
  if (certificate !== undefined) return certificate;
  const generated = createTestCertificate({ rnc: TAXAUTH_TEST_ISSUER_RNC, commonName: TAXAUTH_NAME });
  const loaded = loadCertificate({
    privateKeyPem: generated.privateKeyPem,
    certificatePem: generated.certificatePem,
  });
  if (!loaded.success) throw new Error(loaded.issues.map((issue) => issue.message).join('; '));
  certificate = loaded.data;
  return certificate;
}

/**
 * A registered base URL with the tax authority's service path appended, unless it already ends
 * with it (the conventions of `@ecf/taxauth-client`'s receiver URLs, docs/receiving.md).
 */
export function serviceUrlOf(base: string, path: string): string | undefined {
  let url: URL;
  try {
    url = new URL(base.trim());
  } catch {
    return undefined;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
  const pathname = url.pathname.replace(/\/+$/, '');
  url.pathname = pathname.toLowerCase().endsWith(path.toLowerCase()) ? pathname : `${pathname}${path}`;
  url.search = '';
  url.hash = '';
  return url.toString();
}

/** The receiver's authentication base (`…/fe/autenticacion/api`), from a registered URL. */
function authenticationBaseOf(registered: string): string | undefined {
  return serviceUrlOf(
    registered.trim().replace(/\/(semilla|validacioncertificado)\/?$/i, ''),
    '/fe/autenticacion/api',
  );
}

async function readText(response: Response): Promise<string> {
  const body = response.body as AsyncIterable<Uint8Array> | null;
  if (body === null) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  // Leaving the loop early (the throw) cancels the rest of the answer.
  for await (const chunk of body) {
    size += chunk.byteLength;
    if (size > MAX_ANSWER_BYTES) throw new Error(`answer over ${MAX_ANSWER_BYTES} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function excerpt(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 300 ? `${flat.slice(0, 300)}…` : flat;
}

type THttpAnswer = { status: number; text: string } | { error: string };

/** One request as the tax authority sends it (no redirects followed, bounded wait and size). */
async function send(
  url: string,
  init: {
    method: 'GET' | 'POST';
    accept: 'application/json' | 'application/xml';
    token?: string;
    xml?: string;
    fileName?: string;
  },
): Promise<THttpAnswer> {
  const headers: Record<string, string> = { accept: init.accept };
  if (init.token !== undefined) headers['authorization'] = `bearer ${init.token}`;
  let body: FormData | undefined;
  if (init.xml !== undefined) {
    body = new FormData();
    body.append('xml', new Blob([init.xml], { type: 'text/xml' }), init.fileName ?? 'documento.xml');
  }
  try {
    const response = await fetch(url, {
      method: init.method,
      headers,
      ...(body === undefined ? {} : { body }),
      redirect: 'manual',
      signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
    });
    return { status: response.status, text: await readText(response) };
  } catch (error) {
    const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
    return { error: `${error instanceof Error ? error.message : String(error)}${cause}` };
  }
}

/** Records one call and tells whether it succeeded. */
function called(
  calls: TReceptionTestCall[],
  service: TReceptionTestCall['service'],
  url: string,
  answer: THttpAnswer,
  judged: { ok: boolean; detail: string },
): boolean {
  calls.push({
    service,
    url,
    httpStatus: 'status' in answer ? answer.status : null,
    outcome: judged.ok ? 'ok' : 'failed',
    detail: 'error' in answer ? `no answer: ${answer.error}` : judged.detail,
  });
  return judged.ok && 'status' in answer;
}

/** Seed → signed seed → token on the receiver's authentication service; undefined when it failed. */
async function authenticate(
  registered: string,
  signer: TSigningCertificate,
  calls: TReceptionTestCall[],
): Promise<string | undefined> {
  const base = authenticationBaseOf(registered);
  if (base === undefined) {
    calls.push({
      service: 'seed',
      url: registered,
      httpStatus: null,
      outcome: 'failed',
      detail: 'not an http(s) URL',
    });
    return undefined;
  }
  const seedUrl = `${base}/semilla`;
  const seed = await send(seedUrl, { method: 'GET', accept: 'application/xml' });
  const seedText = 'text' in seed ? seed.text : '';
  const seedOk = 'status' in seed && seed.status === 200 && rootNameOf(seedText) === 'SemillaModel';
  const signed = seedOk ? signForeignXml(seedText, signer) : undefined;
  const seedUsable = signed?.success === true;
  if (
    !called(calls, 'seed', seedUrl, seed, {
      ok: seedUsable,
      detail: seedUsable
        ? 'SemillaModel received and signed'
        : `expected HTTP 200 with a SemillaModel, got ${'status' in seed ? seed.status : '-'}: ${excerpt(seedText)}`,
    }) ||
    signed?.success !== true
  )
    return undefined;
  const validationUrl = `${base}/validacioncertificado`;
  const validation = await send(validationUrl, {
    method: 'POST',
    accept: 'application/json',
    xml: signed.data.xml,
    fileName: 'semilla.xml',
  });
  let token: string | undefined;
  if ('status' in validation && validation.status === 200) {
    try {
      const parsed = ZTokenAnswer.safeParse(JSON.parse(validation.text));
      if (parsed.success) token = parsed.data.token;
    } catch {
      token = undefined;
    }
  }
  called(calls, 'certificate_validation', validationUrl, validation, {
    ok: token !== undefined,
    detail:
      token !== undefined
        ? 'token received'
        : `expected HTTP 200 with {"token","expira","expedido"}, got ${'status' in validation ? validation.status : '-'}: ${excerpt('text' in validation ? validation.text : '')}`,
  });
  return token;
}

/** The e-CF the tax authority's test issuer delivers to the taxpayer (an E31 of one line). */
function receptionTestEcf(options: {
  rnc: string;
  buyerName: string;
  encf: string;
  now: Date;
}): TEcfDocument {
  const today = dominicanDateOf(options.now.getTime());
  return {
    ECF: {
      Encabezado: {
        Version: '1.0',
        IdDoc: {
          TipoeCF: '31',
          eNCF: options.encf,
          FechaVencimientoSecuencia: `31-12-${today.year + 1}`,
          IndicadorMontoGravado: '0',
          TipoIngresos: '01',
          TipoPago: '1',
        },
        Emisor: {
          RNCEmisor: TAXAUTH_TEST_ISSUER_RNC,
          RazonSocialEmisor: TAXAUTH_NAME,
          DireccionEmisor: 'Av. México No. 48, Gascue, Santo Domingo',
          FechaEmision: formatTaxauthDate(today),
        },
        Comprador: { RNCComprador: options.rnc, RazonSocialComprador: options.buyerName },
        Totales: {
          MontoGravadoTotal: '1000.00',
          MontoGravadoI1: '1000.00',
          ITBIS1: '18',
          TotalITBIS: '180.00',
          TotalITBIS1: '180.00',
          MontoTotal: '1180.00',
        },
      },
      DetallesItems: {
        Item: [
          {
            NumeroLinea: '1',
            IndicadorFacturacion: '1',
            NombreItem: 'Servicio de prueba de recepción de e-CF',
            IndicadorBienoServicio: '2',
            CantidadItem: '1.00',
            PrecioUnitarioItem: '1000.00',
            MontoItem: '1000.00',
          },
        ],
      },
    },
  };
}

/** Judges the receiver's answer to the e-CF: an ARECF, Estado 0, signed by the taxpayer, about this e-CF. */
function judgeAcknowledgement(
  text: string,
  expected: { rnc: string; encf: string },
  validators: TXsdValidators,
): { ok: boolean; detail: string } {
  if (rootNameOf(text) !== 'ARECF')
    return { ok: false, detail: `the answer is not an ARECF: ${excerpt(text)}` };
  const signature = verifyXmlSignature(text);
  if (!signature.valid)
    return {
      ok: false,
      detail: `the ARECF is not validly signed (${signature.reason}: ${signature.message})`,
    };
  if (signature.certificate.holderId !== expected.rnc)
    return {
      ok: false,
      detail: `the ARECF is signed by ${signature.certificate.holderId ?? 'a certificate without holder id'}, not by ${expected.rnc}`,
    };
  const structure = validators.validateXml(text, 'ARECF');
  if (!structure.success)
    return {
      ok: false,
      detail: `the ARECF does not follow its XSD: ${structure.issues
        .slice(0, 3)
        .map((issue) => issue.message)
        .join(' | ')}`,
    };
  const fields = {
    RNCEmisor: [leafText(text, 'RNCEmisor'), TAXAUTH_TEST_ISSUER_RNC],
    RNCComprador: [leafText(text, 'RNCComprador'), expected.rnc],
    eNCF: [leafText(text, 'eNCF'), expected.encf],
  } as const;
  for (const [field, [received, wanted]] of Object.entries(fields))
    if (received !== wanted)
      return { ok: false, detail: `the ARECF's ${field} is ${received ?? '(absent)'}, not ${wanted}` };
  const estado = leafText(text, 'Estado');
  if (estado !== '0')
    return {
      ok: false,
      detail: `the ARECF says Estado ${estado ?? '(absent)'} (CodigoMotivoNoRecibido ${leafText(text, 'CodigoMotivoNoRecibido') ?? '-'}): e-CF not received`,
    };
  return { ok: true, detail: 'signed ARECF, Estado 0 (e-CF received)' };
}

/** Runs one reception test against the taxpayer's test URLs; nothing of the certification changes here. */
export async function runReceptionTest(options: {
  kind: 'ecf' | 'commercial_approval';
  rnc: string;
  legalName: string | null;
  urls: TServiceUrls;
  portal: TCertificationPortal;
  validators: TXsdValidators;
  now: () => Date;
}): Promise<TReceptionTestReport> {
  const calls: TReceptionTestCall[] = [];
  const signer = taxAuthorityCertificate();
  let token: string | undefined;
  if (options.urls.authenticationUrl !== null) {
    token = await authenticate(options.urls.authenticationUrl, signer, calls);
    if (token === undefined) return { ok: false, calls };
  }
  const auth = token === undefined ? {} : { token };

  if (options.kind === 'ecf') {
    const url = serviceUrlOf(options.urls.receptionUrl, '/fe/recepcion/api/ecf') ?? options.urls.receptionUrl;
    const encf = await options.portal.nextTestIssuerEncf('31');
    const at = options.now();
    const signed = signEcfDocument(
      receptionTestEcf({
        rnc: options.rnc,
        buyerName: options.legalName ?? `Contribuyente ${options.rnc}`,
        encf,
        now: at,
      }),
      signer,
      at,
    );
    if (!signed.success)
      throw new Error(`the reception test e-CF cannot be built: ${JSON.stringify(signed.issues)}`);
    // The tax authority accepted its own e-CF before delivering it: Consulta Estado and an ACECF find it.
    await options.portal.recordIssuedDocuments([
      {
        trackId: randomUUID(),
        environment: 'certecf',
        rncEmisor: TAXAUTH_TEST_ISSUER_RNC,
        encf,
        rncComprador: options.rnc,
        montoTotal: '1180.00',
        totalItbis: '180.00',
        fechaEmision: formatTaxauthDate(dominicanDateOf(at.getTime())),
        fechaFirma: signed.data.signedAt,
        codigoSeguridad: signed.data.securityCode,
        receivedAt: at,
      },
    ]);
    const answer = await send(url, {
      method: 'POST',
      accept: 'application/xml',
      xml: signed.data.xml,
      fileName: `${TAXAUTH_TEST_ISSUER_RNC}${encf}.xml`,
      ...auth,
    });
    const judged =
      'status' in answer && answer.status === 200
        ? judgeAcknowledgement(answer.text, { rnc: options.rnc, encf }, options.validators)
        : {
            ok: false,
            detail: `expected HTTP 200 with a signed ARECF: ${excerpt('text' in answer ? answer.text : '')}`,
          };
    const ok = called(calls, 'ecf_reception', url, answer, {
      ok: judged.ok,
      detail: `${encf}: ${judged.detail}`,
    });
    return { ok, calls };
  }

  const url =
    serviceUrlOf(options.urls.commercialApprovalUrl, '/fe/aprobacioncomercial/api/ecf') ??
    options.urls.commercialApprovalUrl;
  const documents = await options.portal.approvableDocumentsOf(options.rnc);
  const approved =
    documents.find((document) => document.rncComprador === TAXAUTH_TEST_ISSUER_RNC) ?? documents[0];
  if (approved === undefined) {
    calls.push({
      service: 'commercial_approval_reception',
      url,
      httpStatus: null,
      outcome: 'failed',
      detail: 'the taxpayer has no e-CF (types 31, 33, 34, 44, 45) accepted in CerteCF to approve',
    });
    return { ok: false, calls };
  }
  const built = buildAcecfXml({
    rncEmisor: options.rnc,
    encf: approved.encf,
    fechaEmision: approved.fechaEmision,
    montoTotal: approved.montoTotal,
    rncComprador: TAXAUTH_TEST_ISSUER_RNC,
    estado: 'accepted',
    approvedAt: formatDominicanDateTime(options.now().getTime()),
  });
  if (!built.success)
    throw new Error(`the reception test ACECF cannot be built: ${JSON.stringify(built.issues)}`);
  const answer = await send(url, {
    method: 'POST',
    accept: 'application/json',
    xml: signXml(built.data, signer).xml,
    fileName: `${TAXAUTH_TEST_ISSUER_RNC}${approved.encf}.xml`,
    ...auth,
  });
  const accepted = 'status' in answer && answer.status === 200;
  const ok = called(calls, 'commercial_approval_reception', url, answer, {
    ok: accepted,
    detail: `ACECF of ${approved.encf}: ${accepted ? 'HTTP 200 (received)' : `expected HTTP 200: ${excerpt('text' in answer ? answer.text : '')}`}`,
  });
  return { ok, calls };
}
