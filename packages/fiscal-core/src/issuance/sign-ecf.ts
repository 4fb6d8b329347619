/**
 * The issuance step the worker runs for a validated submission: stamp the signature time, write the
 * canonical XML of the type's XSD and sign it. One function so that the signature time, the signed
 * bytes and the values derived from them (security code, timbre) always come from the same run.
 */
import { formatSignatureDateTime } from '../derived/dates.ts';
import { buildTimbreUrl, type TDgiiEnvironment } from '../derived/qr-url.ts';
import { securityCodeFromSignatureValue } from '../derived/security-code.ts';
import type { TEcfDocument, TEcfTree, TEcfType } from '../model/ecf-tree.ts';
import { signXml } from '../signing/sign-xml.ts';
import type { TSigningCertificate } from '../signing/types.ts';
import { buildEcfXml } from '../xml/ecf-writer.ts';
import type { TXmlIssue } from '../xml/xml-issues.ts';

/** A signed e-CF and the values printed from it. */
export type TSignedEcf = {
  /** The signed XML (UTF-8, no declaration), exactly the bytes to store and send. */
  xml: string;
  type: TEcfType;
  eNcf: string;
  /** `FechaHoraFirma` as written, `dd-MM-yyyy HH:mm:ss` in Dominican time. */
  signedAt: string;
  signatureValue: string;
  /** First six characters of the `SignatureValue` (FACTS §3.4). */
  securityCode: string;
};

export type TSignEcfResult = { success: true; data: TSignedEcf } | { success: false; issues: TXmlIssue[] };

/**
 * Signs a validated e-CF tree. `FechaHoraFirma` keeps the client's `signatureDate` when the
 * submission carried one (already checked not to be in the future) and is `now` otherwise. The
 * input tree is not modified.
 */
export function signEcfDocument(
  document: TEcfDocument,
  certificate: TSigningCertificate,
  now: Date,
): TSignEcfResult {
  const given = document.ECF['FechaHoraFirma'];
  const signedAt = typeof given === 'string' && given !== '' ? given : formatSignatureDateTime(now);
  const stamped: TEcfDocument = { ECF: { ...document.ECF, FechaHoraFirma: signedAt } };
  const built = buildEcfXml(stamped);
  if (!built.success) return built;
  const signed = signXml(built.data, certificate);
  const idDoc = (stamped.ECF['Encabezado'] as TEcfTree)['IdDoc'] as TEcfTree;
  return {
    success: true,
    data: {
      xml: signed.xml,
      type: idDoc['TipoeCF'] as TEcfType,
      eNcf: idDoc['eNCF'] as string,
      signedAt,
      signatureValue: signed.signatureValue,
      securityCode: securityCodeFromSignatureValue(signed.signatureValue),
    },
  };
}

/** The QR URL of a signed e-CF in an environment (FC form for an E32 below RD$250,000). */
export function timbreUrlOf(
  document: TEcfDocument,
  signed: TSignedEcf,
  environment: TDgiiEnvironment,
): string {
  const encabezado = document.ECF['Encabezado'] as TEcfTree;
  const text = (section: string, name: string): string | undefined => {
    const value = (encabezado[section] as TEcfTree | undefined)?.[name];
    return typeof value === 'string' ? value : undefined;
  };
  const rncComprador = text('Comprador', 'RNCComprador');
  return buildTimbreUrl({
    environment,
    rncEmisor: text('Emisor', 'RNCEmisor') ?? '',
    ...(rncComprador === undefined ? {} : { rncComprador }),
    eNcf: signed.eNcf,
    fechaEmision: text('Emisor', 'FechaEmision') ?? '',
    montoTotal: text('Totales', 'MontoTotal') ?? '0.00',
    fechaFirma: signed.signedAt,
    codigoSeguridad: signed.securityCode,
  });
}
