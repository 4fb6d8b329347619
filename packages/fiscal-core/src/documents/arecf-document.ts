/**
 * ARECF (Acuse de Recibo): the receiver's acknowledgement that an e-CF arrived (or did not, and why),
 * sent back to the issuer [FARECF; ARECF v1.0.xsd]. It neither accepts nor rejects the e-CF.
 */
import type { TEcfTree } from '../model/ecf-tree.ts';
import { writeOrderedXml } from '../xml/ordered-writer.ts';
import { XML_ISSUE_CODES } from '../xml/xml-issues.ts';
import type { TXmlIssue, TXmlResult } from '../xml/xml-issues.ts';
import { XSD_ORDER_TABLES } from '../xml/xsd-order.generated.ts';
import { checkDateTime, checkEncf, checkRnc } from './field-checks.ts';

/** Why an e-CF is acknowledged as not received (`CodigoMotivoNoRecibido`). */
export const NOT_RECEIVED_REASONS = {
  /** 1: Error de especificación. */
  specification_error: '1',
  /** 2: Error de firma digital. */
  signature_error: '2',
  /** 3: Envío duplicado. */
  duplicate: '3',
  /** 4: RNC comprador no corresponde. */
  buyer_rnc_mismatch: '4',
} as const;

/** One of the keys of {@link NOT_RECEIVED_REASONS}. */
export type TNotReceivedReason = keyof typeof NOT_RECEIVED_REASONS;

/** The fields of an ARECF. */
export type TArecfInput = {
  /** RNC of the e-CF's issuer. */
  rncEmisor: string;
  /** RNC of the receiver sending the acknowledgement. */
  rncComprador: string;
  /** eNCF of the received e-CF. */
  encf: string;
  /** `received` is `Estado` 0, `not_received` is `Estado` 1. */
  estado: 'received' | 'not_received';
  /** Required when not received, not allowed when received. */
  notReceivedReason?: TNotReceivedReason;
  /** `FechaHoraAcuseRecibo`: `dd-MM-yyyy HH:mm:ss`, Dominican Republic time. */
  acknowledgedAt: string;
};

/**
 * Builds the unsigned ARECF as canonical XML (root `ARECF`, child `DetalleAcusedeRecibo`, element order
 * of ARECF v1.0.xsd); the signer appends `<Signature>` after `DetalleAcusedeRecibo`.
 */
export function buildArecfXml(input: TArecfInput): TXmlResult {
  const issues: TXmlIssue[] = [];
  const reason = input.notReceivedReason;
  if (input.estado === 'not_received' && reason === undefined) {
    issues.push({
      code: XML_ISSUE_CODES.NOT_RECEIVED_REASON_REQUIRED,
      path: 'notReceivedReason',
      message: 'An e-CF acknowledged as not received needs its reason code (CodigoMotivoNoRecibido).',
    });
  }
  if (input.estado === 'received' && reason !== undefined) {
    issues.push({
      code: XML_ISSUE_CODES.NOT_RECEIVED_REASON_NOT_APPLICABLE,
      path: 'notReceivedReason',
      message: 'An e-CF acknowledged as received carries no "not received" reason.',
    });
  }
  if (reason !== undefined && !Object.hasOwn(NOT_RECEIVED_REASONS, reason)) {
    issues.push({
      code: XML_ISSUE_CODES.NOT_RECEIVED_REASON_INVALID,
      path: 'notReceivedReason',
      message: `The reason must be one of ${Object.keys(NOT_RECEIVED_REASONS).join(', ')}.`,
      details: { allowed: Object.keys(NOT_RECEIVED_REASONS) },
    });
  }
  const detail: TEcfTree = {
    Version: '1.0',
    RNCEmisor: checkRnc(input.rncEmisor, 'rncEmisor', issues),
    RNCComprador: checkRnc(input.rncComprador, 'rncComprador', issues),
    eNCF: checkEncf(input.encf, 'encf', issues),
    Estado: input.estado === 'received' ? '0' : '1',
    CodigoMotivoNoRecibido:
      input.estado === 'not_received' && reason !== undefined ? NOT_RECEIVED_REASONS[reason] : undefined,
    FechaHoraAcuseRecibo: checkDateTime(input.acknowledgedAt, 'acknowledgedAt', issues),
  };
  if (issues.length > 0) return { success: false, issues };
  return writeOrderedXml(XSD_ORDER_TABLES.ARECF, { DetalleAcusedeRecibo: detail });
}
