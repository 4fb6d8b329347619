/**
 * ACECF (Aprobación Comercial): the buyer's commercial acceptance or rejection of a received e-CF,
 * sent to the issuer and copied to the tax authority [FACECF; ACECF v.1.0.xsd].
 */
import type { TEcfTree } from '../model/ecf-tree.ts';
import { writeOrderedXml } from '../xml/ordered-writer.ts';
import { XML_ISSUE_CODES } from '../xml/xml-issues.ts';
import type { TXmlIssue, TXmlResult } from '../xml/xml-issues.ts';
import { XSD_ORDER_TABLES } from '../xml/xsd-order.generated.ts';
import { checkAmount, checkDate, checkDateTime, checkEncf, checkRnc } from './field-checks.ts';

/** The fields of an ACECF. Each must match the approved e-CF as the issuer sent it. */
export type TAcecfInput = {
  /** RNC of the e-CF's issuer. */
  rncEmisor: string;
  /** eNCF of the approved e-CF. */
  encf: string;
  /** The e-CF's `FechaEmision`, `dd-MM-yyyy`. */
  fechaEmision: string;
  /** The e-CF's `MontoTotal`; written with two decimals as the ACECF XSD requires. */
  montoTotal: string;
  /** RNC of the buyer sending the approval (the e-CF's `RNCComprador`). */
  rncComprador: string;
  /** `accepted` is `Estado` 1, `rejected` is `Estado` 2. */
  estado: 'accepted' | 'rejected';
  /** Required when rejected, not allowed when accepted; at most 250 characters. */
  rejectionReason?: string;
  /** `FechaHoraAprobacionComercial`: `dd-MM-yyyy HH:mm:ss`, Dominican Republic time. */
  approvedAt: string;
};

const MAX_REJECTION_REASON = 250;

/**
 * Builds the unsigned ACECF as canonical XML (root `ACECF`, child `DetalleAprobacionComercial`, element
 * order of ACECF v.1.0.xsd); the signer appends `<Signature>` after `DetalleAprobacionComercial`.
 * Every input problem comes back as an issue on the input's field name.
 */
export function buildAcecfXml(input: TAcecfInput): TXmlResult {
  const issues: TXmlIssue[] = [];
  const reason = input.rejectionReason;
  if (input.estado === 'rejected' && (reason === undefined || reason.trim() === '')) {
    issues.push({
      code: XML_ISSUE_CODES.REJECTION_REASON_REQUIRED,
      path: 'rejectionReason',
      message: 'A commercial rejection needs its reason (DetalleMotivoRechazo).',
    });
  }
  if (input.estado === 'accepted' && reason !== undefined) {
    issues.push({
      code: XML_ISSUE_CODES.REJECTION_REASON_NOT_APPLICABLE,
      path: 'rejectionReason',
      message: 'An acceptance carries no rejection reason.',
    });
  }
  if (reason !== undefined && [...reason].length > MAX_REJECTION_REASON) {
    issues.push({
      code: XML_ISSUE_CODES.REJECTION_REASON_TOO_LONG,
      path: 'rejectionReason',
      message: `The rejection reason may have at most ${MAX_REJECTION_REASON} characters.`,
      details: { maxLength: MAX_REJECTION_REASON },
    });
  }
  const detail: TEcfTree = {
    Version: '1.0',
    RNCEmisor: checkRnc(input.rncEmisor, 'rncEmisor', issues),
    eNCF: checkEncf(input.encf, 'encf', issues),
    FechaEmision: checkDate(input.fechaEmision, 'fechaEmision', issues),
    MontoTotal: checkAmount(input.montoTotal, 'montoTotal', issues),
    RNCComprador: checkRnc(input.rncComprador, 'rncComprador', issues),
    Estado: input.estado === 'accepted' ? '1' : '2',
    DetalleMotivoRechazo: input.estado === 'rejected' ? reason : undefined,
    FechaHoraAprobacionComercial: checkDateTime(input.approvedAt, 'approvedAt', issues),
  };
  if (issues.length > 0) return { success: false, issues };
  const result = writeOrderedXml(XSD_ORDER_TABLES.ACECF, { DetalleAprobacionComercial: detail });
  if (result.success) return result;
  // Only the free-text reason can still fail here (a character XML cannot carry): report it on the input field.
  return {
    success: false,
    issues: result.issues.map((issue) =>
      issue.path === 'ACECF.DetalleAprobacionComercial.DetalleMotivoRechazo'
        ? { ...issue, path: 'rejectionReason' }
        : issue,
    ),
  };
}
