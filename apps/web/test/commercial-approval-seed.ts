/**
 * Test support for the commercial approval procedures: a received e-CF of a tenant and, when asked,
 * its approval in a given state (rows written directly: the procedures' tests need states, not the
 * tax authority; the whole flow is tested in packages/services against the simulator).
 */
import { randomInt } from 'node:crypto';
import { artifactData, type Environment, type ReceiverDeliveryStatus, type TDatabase } from '@ecf/db';

export async function seedReceivedWithApproval(
  database: TDatabase,
  input: {
    tenantId: string;
    buyerRnc: string;
    environment?: Environment;
    approval?: {
      decision?: 'accept' | 'reject';
      taxauthStatus?: 'accepted' | 'uncertain';
      dispatchStatus?: ReceiverDeliveryStatus;
      dispatchAttempts?: number;
      lastResponse?: Record<string, string | number | boolean | null>;
    };
  },
): Promise<{ inboundDocumentId: string; commercialApprovalId: string | null }> {
  const environment = input.environment ?? 'TesteCF';
  const encf = `E31${String(randomInt(1, 2_000_000_000)).padStart(10, '0')}`;
  const inbound = await database.inboundDocument.create({
    data: {
      tenantId: input.tenantId,
      environment,
      kind: 'ecf',
      status: 'received',
      issuerRnc: '401000001',
      buyerRnc: input.buyerRnc,
      encf,
      ecfType: 31,
      issueDate: new Date('2026-04-01T00:00:00Z'),
      totalAmount: '118.00',
    },
  });
  if (input.approval === undefined) return { inboundDocumentId: inbound.id, commercialApprovalId: null };
  const artifact = await database.artifact.create({
    data: artifactData({
      tenantId: input.tenantId,
      documentId: null,
      kind: 'commercial_approval',
      contentType: 'application/xml',
      content: `<ACECF><DetalleAprobacionComercial><eNCF>${encf}</eNCF></DetalleAprobacionComercial></ACECF>`,
    }),
  });
  const approval = await database.commercialApproval.create({
    data: {
      inboundDocumentId: inbound.id,
      tenantId: input.tenantId,
      environment,
      decision: input.approval.decision ?? 'accept',
      approvalDate: new Date('2026-04-02T14:00:00Z'),
      acecfArtifactId: artifact.id,
      taxauthStatus: input.approval.taxauthStatus ?? 'accepted',
      taxauthAnswer: { codigo: '1', estado: 'Aprobación comercial aprobada', mensajes: [] },
      targetSource: 'directory',
      targetUrl: 'http://127.0.0.1:9/fe/aprobacioncomercial/api/ecf',
      dispatchStatus: input.approval.dispatchStatus ?? 'sent',
      dispatchAttempts: input.approval.dispatchAttempts ?? 1,
      ...(input.approval.lastResponse === undefined ? {} : { lastResponse: input.approval.lastResponse }),
    },
  });
  return { inboundDocumentId: inbound.id, commercialApprovalId: approval.id };
}
