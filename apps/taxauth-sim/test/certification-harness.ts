/**
 * Test support of the certification portal: workbook rows signed as a taxpayer's software sends
 * them (validated by fiscal-core, signed, every text as written), sends of a whole data-test set
 * to CerteCF in a valid order, the admin calls, and a fake receiver that plays the taxpayer's
 * reception services for the reception tests.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import {
  orderCertificationSends,
  readCertificationWorkbook,
  workbookRowToEcf,
  workbookRowToRfce,
  type TCertificationWorkbook,
  type TEcfSetWorkbook,
  type TTaxauthTree,
  type TWorkbookRow,
} from '@ecf/certification-sets';
import {
  buildArecfXml,
  escapeText,
  signEcfDocument,
  signXml,
  validateSubmission,
  verifyXmlSignature,
  type TEcfDocument,
  type TReferencedDocument,
  type TSigningCertificate,
  type TXsdValidators,
} from '@ecf/fiscal-core';
import { categoryOfRow } from '../src/certification/portal.ts';
import { jsonOf, postXml, waitForResult } from './simulator-harness.ts';

/** The sending day: after the model set's issue dates (its expired sequences only warn). */
export const SENDING_DAY = new Date('2026-11-21T15:00:00Z');

/** An answer's parsed JSON, untyped as `jsonOf` is (the assertions check its shape). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read untyped HTTP answers
export type TJson = any;

/** Calls an admin route with a JSON body (or none). */
export async function admin(
  baseUrl: string,
  method: 'GET' | 'POST' | 'PUT',
  path: string,
  body?: unknown,
): Promise<{ status: number; body: TJson }> {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    ...(body === undefined
      ? {}
      : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
  const text = await response.text();
  const answer: unknown = text === '' ? null : JSON.parse(text);
  return { status: response.status, body: answer };
}

/** Downloads and reads the current workbook of a kind. */
export async function downloadWorkbook(
  baseUrl: string,
  rnc: string,
  kind: 'ecf' | 'approvals',
): Promise<{ response: Response; content: Uint8Array; workbook: TCertificationWorkbook }> {
  const response = await fetch(`${baseUrl}/_sim/certification/${rnc}/workbooks/${kind}`);
  if (response.status !== 200) throw new Error(`workbook download answered ${response.status}`);
  const content = new Uint8Array(await response.arrayBuffer());
  const read = await readCertificationWorkbook({ content, expectedRnc: rnc });
  if (!read.ok) throw new Error(JSON.stringify(read.errors));
  return { response, content, workbook: read.workbook };
}

/** An e-CF row validated and signed; `mutate` changes the validated tree before signing. */
export async function signEcfRow(
  row: TWorkbookRow,
  set: TEcfSetWorkbook,
  certificate: TSigningCertificate,
  mutate?: (document: TEcfDocument) => TEcfDocument,
): Promise<{ xml: string; fileName: string; securityCode: string; encf: string }> {
  const mapped = workbookRowToEcf(row);
  if (!mapped.ok) throw new Error(JSON.stringify(mapped.errors));
  const referencedDocumentOf = (encf: string): TReferencedDocument | null => {
    const original = set.ecf.find((candidate) => candidate.values['ENCF'] === encf);
    if (original === undefined) return null;
    return {
      status: 'accepted',
      buyerId: original.values['RNCComprador'] ?? original.values['IdentificadorExtranjero'] ?? null,
      issueDate: original.values['FechaEmision'] ?? '',
      totalAmount: original.values['MontoTotal'] ?? '0',
      creditNotesTotal: '0',
    };
  };
  const validated = await validateSubmission(JSON.stringify(mapped.document), {
    now: SENDING_DAY,
    account: {
      rnc: set.issuerRnc,
      legalName: row.values['RazonSocialEmisor'] ?? '',
      deferredSendAuthorized: false,
    },
    lookupReferencedDocument: referencedDocumentOf,
  });
  if (!validated.success) throw new Error(`row ${row.row}: ${JSON.stringify(validated.errors)}`);
  const document =
    mutate === undefined ? validated.data.document : mutate(structuredClone(validated.data.document));
  const signed = signEcfDocument(document, certificate, SENDING_DAY);
  if (!signed.success) throw new Error(JSON.stringify(signed.issues));
  const encf = row.values['ENCF'] ?? '';
  return {
    xml: signed.data.xml,
    fileName: `${set.issuerRnc}${encf}.xml`,
    securityCode: signed.data.securityCode,
    encf,
  };
}

function writeTree(name: string, value: TTaxauthTree[string]): string {
  if (typeof value === 'string') return `<${name}>${escapeText(value)}</${name}>`;
  if (Array.isArray(value)) return value.map((item) => writeTree(name, item)).join('');
  return `<${name}>${Object.entries(value)
    .map(([child, inner]) => writeTree(child, inner))
    .join('')}</${name}>`;
}

/** An RFCE row written as its XML (every text as written) with the E32's security code, signed. */
export function signRfceRow(
  row: TWorkbookRow,
  rnc: string,
  securityCode: string,
  certificate: TSigningCertificate,
): { xml: string; fileName: string; encf: string } {
  const mapped = workbookRowToRfce(row);
  if (!mapped.ok) throw new Error(JSON.stringify(mapped.errors));
  const rfce = mapped.document['RFCE'] as TTaxauthTree;
  const encabezado = { ...(rfce['Encabezado'] as TTaxauthTree), CodigoSeguridadeCF: securityCode };
  const xml = `<RFCE>${writeTree('Encabezado', encabezado)}</RFCE>`;
  const encf = row.values['ENCF'] ?? '';
  return { xml: signXml(xml, certificate).xml, fileName: `${rnc}${encf}.xml`, encf };
}

export type TSendResult = { sheet: 'ECF' | 'RFCE'; encf: string; result: Record<string, TJson> };

/**
 * Sends a whole data-test set to CerteCF as the service would: the `ECF` rows in send order (a
 * small E32 only signed, for its security code), then the `RFCE` rows through `recepcionfc`.
 */
export async function sendDataSet(
  baseUrl: string,
  set: TEcfSetWorkbook,
  options: { token: string; certificate: TSigningCertificate },
): Promise<TSendResult[]> {
  const results: TSendResult[] = [];
  const securityCodes = new Map<string, string>();
  for (const row of orderCertificationSends(set.ecf)) {
    const signed = await signEcfRow(row, set, options.certificate);
    if (categoryOfRow(row) === '32_rfce') {
      securityCodes.set(signed.encf, signed.securityCode);
      continue;
    }
    const response = await postXml(`${baseUrl}/certecf/recepcion/api/facturaselectronicas`, signed.xml, {
      fileName: signed.fileName,
      token: options.token,
    });
    const { trackId } = (await jsonOf(response)) as { trackId: string };
    results.push({
      sheet: 'ECF',
      encf: signed.encf,
      result: await waitForResult(baseUrl, 'certecf', options.token, trackId),
    });
  }
  for (const row of set.rfce) {
    const encf = row.values['ENCF'] ?? '';
    const signed = signRfceRow(row, set.issuerRnc, securityCodes.get(encf) ?? 'Ab1+Z/', options.certificate);
    const response = await postXml(`${baseUrl}/certecf/recepcionfc/api/recepcion/ecf`, signed.xml, {
      fileName: signed.fileName,
      token: options.token,
    });
    results.push({ sheet: 'RFCE', encf, result: (await jsonOf(response)) as Record<string, TJson> });
  }
  return results;
}

export type TReceiverMode = 'signed' | 'unsigned' | 'wrong_signer' | 'refuse_approval';

export type TFakeReceiver = {
  /** Base URL as registered in the directory (`http://127.0.0.1:<port>/CerteCF`). */
  baseUrl: string;
  mode: TReceiverMode;
  /** What arrived, in order. */
  received: Array<{
    path: string;
    fileName: string | undefined;
    authorization: string | undefined;
    xml: string;
  }>;
  close(): Promise<void>;
};

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * The taxpayer's reception services as docs/receiving.md describes them, under `/CerteCF`: seed and
 * certificate validation (a token), e-CF reception answering an ARECF (signed by the taxpayer, or
 * per `mode` unsigned or signed by someone else), commercial approval answering 200.
 */
export async function startFakeReceiver(options: {
  rnc: string;
  certificate: TSigningCertificate;
  otherCertificate: TSigningCertificate;
  validators: TXsdValidators;
}): Promise<TFakeReceiver> {
  const tokens = new Set<string>();
  const receiver: TFakeReceiver = {
    baseUrl: '',
    mode: 'signed',
    received: [],
    close: async () => undefined,
  };
  const server: Server = createServer((request, reply) => {
    void (async () => {
      const path = (request.url ?? '').split('?')[0]?.toLowerCase() ?? '';
      const body = await readBody(request);
      const send = (status: number, type: string, text: string) => {
        reply.writeHead(status, { 'content-type': type });
        reply.end(text);
      };
      const xmlPart = async (): Promise<{ xml: string; fileName: string | undefined } | undefined> => {
        const form = await new Response(body, {
          headers: { 'content-type': request.headers['content-type'] ?? '' },
        }).formData();
        const part = form.get('xml');
        if (part === null || typeof part === 'string') return undefined;
        return { xml: await part.text(), fileName: part.name };
      };
      const authorized = () => {
        const token = /^bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
        return token !== undefined && tokens.has(token);
      };
      if (request.method === 'GET' && path === '/certecf/fe/autenticacion/api/semilla') {
        return send(
          200,
          'application/xml',
          `<?xml version="1.0" encoding="utf-8"?><SemillaModel><valor>${randomBytes(48).toString('base64')}</valor><fecha>2026-11-21T11:00:00.0000000-04:00</fecha></SemillaModel>`,
        );
      }
      if (request.method === 'POST' && path === '/certecf/fe/autenticacion/api/validacioncertificado') {
        const part = await xmlPart();
        const verified = part === undefined ? undefined : verifyXmlSignature(part.xml);
        if (verified?.valid !== true) return send(400, 'application/json', '{"ok":false}');
        const token = randomBytes(32).toString('base64url');
        tokens.add(token);
        return send(
          200,
          'application/json',
          JSON.stringify({ token, expira: '2026-11-21T16:00:00Z', expedido: '2026-11-21T15:00:00Z' }),
        );
      }
      if (request.method === 'POST' && path === '/certecf/fe/recepcion/api/ecf') {
        if (!authorized()) return send(401, 'application/json', '{"ok":false}');
        const part = await xmlPart();
        if (part === undefined) return send(400, 'application/json', '{"ok":false}');
        receiver.received.push({
          path,
          fileName: part.fileName,
          authorization: request.headers.authorization,
          xml: part.xml,
        });
        const valid = options.validators.validateXml(part.xml).success && verifyXmlSignature(part.xml).valid;
        const field = (name: string) => new RegExp(`<${name}>([^<]*)</${name}>`).exec(part.xml)?.[1] ?? '';
        const arecf = buildArecfXml({
          rncEmisor: field('RNCEmisor'),
          rncComprador: options.rnc,
          encf: field('eNCF'),
          estado: valid ? 'received' : 'not_received',
          ...(valid ? {} : { notReceivedReason: 'specification_error' as const }),
          acknowledgedAt: '21-11-2026 11:00:00',
        });
        if (!arecf.success) return send(500, 'text/plain', JSON.stringify(arecf.issues));
        const answer =
          receiver.mode === 'unsigned'
            ? arecf.data
            : signXml(
                arecf.data,
                receiver.mode === 'wrong_signer' ? options.otherCertificate : options.certificate,
              ).xml;
        return send(200, 'application/xml', answer);
      }
      if (request.method === 'POST' && path === '/certecf/fe/aprobacioncomercial/api/ecf') {
        if (!authorized()) return send(401, 'application/json', '{"ok":false}');
        const part = await xmlPart();
        if (part === undefined) return send(400, 'application/json', '{"ok":false}');
        receiver.received.push({
          path,
          fileName: part.fileName,
          authorization: request.headers.authorization,
          xml: part.xml,
        });
        const valid = options.validators.validateXml(part.xml).success && verifyXmlSignature(part.xml).valid;
        if (!valid || receiver.mode === 'refuse_approval')
          return send(400, 'application/json', '{"ok":false}');
        return send(200, 'application/json', '{"ok":true,"status":"received"}');
      }
      return send(404, 'application/json', '{"ok":false}');
    })().catch((error: unknown) => {
      reply.writeHead(500);
      reply.end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  receiver.baseUrl = `http://127.0.0.1:${port}/CerteCF`;
  receiver.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return receiver;
}
