/**
 * How a received row reads in the API and the portal: the received e-CF item and the received
 * ACECF item (docs/received-documents.md). Pure: the rows come from `persistence/inbound/inbound-queries.ts`.
 */
import type { Environment } from '@ecf/db';
import type { TInboundRow } from '../persistence/index.ts';
import type { TReceivedGroup } from '@ecf/contract';

/** `YYYY-MM-DD` of a `DATE` column (stored at UTC midnight). */
function dateText(value: Date | null): string | null {
  return value === null ? null : value.toISOString().slice(0, 10);
}

/** Day 15 of the month after `FechaEmision` (spec: the commercial approval's deadline). */
export function commercialApprovalDeadlineOf(issueDate: Date): string {
  const deadline = new Date(Date.UTC(issueDate.getUTCFullYear(), issueDate.getUTCMonth() + 1, 15));
  return deadline.toISOString().slice(0, 10);
}

/** The commercial situation of a received e-CF. */
export function receivedGroupOf(row: TInboundRow): TReceivedGroup {
  if (row.status !== 'received') return 'not_received';
  const active = row.commercialApprovals[0];
  if (!active) return 'pending_approval';
  return active.decision === 'accept' ? 'accepted' : 'rejected';
}

/** The portal page of a received e-CF (`view`): relative to the portal's origin. */
export function receivedDocumentViewOf(environment: Environment, id: string): string {
  return `/${environment}/received/${id}`;
}

/** The portal page of a received ACECF. */
export function receivedApprovalViewOf(environment: Environment, id: string): string {
  return `/${environment}/received-approvals/${id}`;
}

/** The summary of the active commercial approval this account sent (or is sending) for a received e-CF. */
function approvalSummaryOf(row: TInboundRow) {
  const active = row.commercialApprovals[0];
  if (!active) return null;
  return {
    commercialApprovalId: active.id,
    decision: active.decision,
    approvalDate: active.approvalDate.toISOString(),
    rejectionReason: active.rejectionReason,
    taxauthStatus: active.taxauthStatus,
    dispatchStatus: active.dispatchStatus,
    createdAt: active.createdAt.toISOString(),
  };
}

function notReceivedOf(row: TInboundRow) {
  return row.notReceivedCode === null
    ? null
    : { code: row.notReceivedCode, reason: row.notReceivedReason ?? '' };
}

/** A received e-CF as the list, the item route and the portal show it. */
export function toReceivedDocument(row: TInboundRow) {
  const group = receivedGroupOf(row);
  const deadline =
    group !== 'pending_approval'
      ? null
      : (dateText(row.approvalDeadline) ??
        (row.issueDate === null ? null : commercialApprovalDeadlineOf(row.issueDate)));
  return {
    inboundDocumentId: row.id,
    environment: row.environment,
    encf: row.encf,
    type: `E${String(row.ecfType).padStart(2, '0')}`,
    issuerRnc: row.issuerRnc,
    issuerName: row.issuerName,
    buyerRnc: row.buyerRnc,
    issueDate: dateText(row.issueDate),
    totalAmount: row.totalAmount === null ? null : row.totalAmount.toFixed(2),
    status: row.status as 'received' | 'not_received',
    notReceived: notReceivedOf(row),
    receivedAt: row.receivedAt.toISOString(),
    signer: (row.signer ?? null) as Record<string, unknown> | null,
    taxauthValidity: (row.taxauthValidity ?? null) as Record<string, unknown> | null,
    commercialApproval: approvalSummaryOf(row),
    commercialApprovalDeadline: deadline,
    group,
    view: receivedDocumentViewOf(row.environment, row.id),
    links: {
      xml: row.xmlArtifactId === null ? null : `/${row.environment}/documentos-recibidos/${row.id}/xml`,
    },
  };
}
export type TReceivedDocument = ReturnType<typeof toReceivedDocument>;

/** A received ACECF (a customer's decision on one of this account's e-CF). */
export function toReceivedApproval(row: TInboundRow) {
  const received = row.status === 'received';
  return {
    inboundDocumentId: row.id,
    environment: row.environment,
    encf: row.encf,
    issuerRnc: row.issuerRnc,
    buyerRnc: row.buyerRnc,
    documentId: row.documentId,
    status: row.status as 'received' | 'rejected' | 'duplicate',
    // `rejected` (a check of the ACECF failed) or `duplicate`: why, in words.
    notReceived: received ? null : { reason: row.notReceivedReason ?? row.status },
    decision: received ? ((row.decision ?? null) as 'accepted' | 'rejected' | null) : null,
    decisionReason: received ? row.decisionReason : null,
    approvedAt: received ? row.decidedAtText : null,
    correspondence: (row.correspondence ?? null) as Record<string, unknown> | null,
    receivedAt: row.receivedAt.toISOString(),
    view: receivedApprovalViewOf(row.environment, row.id),
    links: {
      xml:
        row.xmlArtifactId === null
          ? null
          : `/${row.environment}/aprobaciones-comerciales-recibidas/${row.id}/xml`,
    },
  };
}
export type TReceivedApproval = ReturnType<typeof toReceivedApproval>;
