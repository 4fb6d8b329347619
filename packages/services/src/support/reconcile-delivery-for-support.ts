import type { TDatabase } from '@ecf/db';
import type { TXsdValidators } from '@ecf/fiscal-core';
import {
  reconcileReceiverDelivery,
  type TReceiverDeliveryReconciliation,
  type TReceiverDeliveryReconciliationRequest,
} from '../receiver-delivery/index.ts';
import { getDocumentScope } from './get-document-scope.ts';

/**
 * Support reconciles an uncertain receiver delivery of any tenant's document: the document's
 * tenant and environment are looked up, then THE use-case of the API route
 * (`POST .../entrega-receptor/reconciliar`) decides, with the same checks of the ARECF (signature,
 * XSD, parties, Estado 0), the same replay and conflict rules and the same errors. Answers the
 * tenant so the caller can record the action in its audit log.
 */
export async function reconcileDeliveryForSupport(options: {
  database: TDatabase;
  documentId: string;
  request: TReceiverDeliveryReconciliationRequest;
  xsdValidators: TXsdValidators;
  now?: Date;
}): Promise<{ tenantId: string; reconciliation: TReceiverDeliveryReconciliation }> {
  const scope = await getDocumentScope({ database: options.database, documentId: options.documentId });
  const reconciliation = await reconcileReceiverDelivery({
    database: options.database,
    tenantId: scope.tenantId,
    environment: scope.environment,
    documentId: scope.documentId,
    request: options.request,
    xsdValidators: options.xsdValidators,
    ...(options.now === undefined ? {} : { now: options.now }),
  });
  return { tenantId: scope.tenantId, reconciliation };
}
