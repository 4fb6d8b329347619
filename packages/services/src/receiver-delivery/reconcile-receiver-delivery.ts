/**
 * `POST /{environment}/documentos-ecf/{documentId}/entrega-receptor/reconciliar`: fixes the
 * outcome of an `uncertain` receiver delivery once, immutably.
 *
 * - `sent` requires `evidence.arecfXml`: the buyer's signed ARECF, checked like a delivery answer
 *   (signature, ARECF XSD, this document's RNCEmisor/RNCComprador/eNCF, signer can be the buyer)
 *   and `Estado` 0; it is stored as a write-once `receiver_acknowledgement` artifact.
 * - `dispatch_failed` takes no evidence (there is no document proving a non-delivery).
 * - The same request again answers the same 200 (compared by outcome, SHA-256 of the evidence
 *   text and note); anything else on a reconciled delivery is 409
 *   `RECEIVER_DELIVERY_OUTCOME_CONFLICT`; a delivery that is not `uncertain` is 409
 *   `RECEIVER_DELIVERY_NOT_UNCERTAIN`; evidence that does not fit is 409
 *   `RECEIVER_DELIVERY_EVIDENCE_INVALID`; another tenant's or environment's document is 404.
 */
import { createHash } from 'node:crypto';
import { sqlPoolOf, type Environment, type TDatabase } from '@ecf/db';
import type { TXsdValidators } from '@ecf/fiscal-core';
import {
  artifactInput,
  changeDelivery,
  findDocumentWithDelivery,
  findSignedXmlArtifact,
  getReceiverDelivery,
  type TReceiverDelivery as ReceiverDelivery,
} from '../persistence/index.ts';
import { AppError } from '../shared/errors.ts';
import { checkAcknowledgement } from './check-acknowledgement.ts';
import { partiesOfSignedXml, RECEIVER_DELIVERY_EVENT_TYPES } from './receiver-delivery-rules.ts';

/** The request body (`FiscalReconciliationRequest` of a receiver delivery). */
export type TReceiverDeliveryReconciliationRequest = {
  outcome: 'sent' | 'dispatch_failed';
  evidence?: { arecfXml: string } | undefined;
  note?: string | undefined;
};

export type TReconcileReceiverDeliveryInput = {
  database: TDatabase;
  tenantId: string;
  environment: Environment;
  documentId: string;
  request: TReceiverDeliveryReconciliationRequest;
  xsdValidators: TXsdValidators;
  now?: Date;
};

/** What is stored in `receiver_deliveries.reconciliation` (and answered, without the fingerprint). */
type TStoredReconciliation = {
  outcome: 'sent' | 'dispatch_failed';
  note: string | null;
  reconciledAt: string;
  evidence: null | {
    artifactId: string;
    sha256: string;
    estado: string;
    acknowledgedAt: string;
    signer: { holderId: string; subject: string; certificateSerialNumber: string; validTo: string };
  };
  request: { outcome: string; evidenceSha256: string | null; note: string | null };
};

/** The `ReconciliationResponse` of a receiver delivery (identical on a replay). */
export type TReceiverDeliveryReconciliation = {
  documentId: string;
  encf: string;
  environment: Environment;
  receiverDelivery: {
    status: string;
    attempts: number;
    targetUrl: string | null;
    arecfArtifactId: string | null;
    reconciledAt: string;
    reconciliation: Omit<TStoredReconciliation, 'request'>;
  };
};

export async function reconcileReceiverDelivery(
  input: TReconcileReceiverDeliveryInput,
): Promise<TReceiverDeliveryReconciliation> {
  const { database, request } = input;
  const at = input.now ?? new Date();
  const document = await findDocumentWithDelivery(database, {
    tenantId: input.tenantId,
    environment: input.environment,
    documentId: input.documentId,
  });
  if (!document) throw new AppError('NOT_FOUND', 'No such document in this account and environment.');
  const fingerprint = {
    outcome: request.outcome,
    evidenceSha256: request.evidence === undefined ? null : sha256(request.evidence.arecfXml),
    note: request.note ?? null,
  };

  const delivery = document.delivery;
  if (delivery?.reconciledAt != null) return replayOrConflict(document, delivery, fingerprint);
  if (delivery?.status !== 'uncertain') {
    throw new AppError(
      'RECEIVER_DELIVERY_NOT_UNCERTAIN',
      `Only an uncertain receiver delivery is reconciled; this one is ${delivery?.status ?? 'absent'}.`,
      {
        details: { status: delivery?.status ?? null },
      },
    );
  }

  let evidence: TStoredReconciliation['evidence'] = null;
  let evidenceXml: string | undefined;
  if (request.outcome === 'sent') {
    if (request.evidence === undefined) {
      throw evidenceInvalid(
        'evidence_required',
        "The outcome sent requires evidence.arecfXml, the buyer's signed ARECF.",
      );
    }
    const signed = await findSignedXmlArtifact(database, {
      tenantId: document.tenantId,
      documentId: document.id,
    });
    if (!signed)
      throw new Error(`document ${document.id} is ${document.status} but has no signed_xml artifact`);
    const parties = partiesOfSignedXml(signed.content.toString('utf8'), document);
    const checked = checkAcknowledgement(request.evidence.arecfXml, parties, {
      xsdValidators: input.xsdValidators,
      now: at,
    });
    if (!checked.success) throw evidenceInvalid(checked.reason, checked.message);
    if (!checked.data.received) {
      throw evidenceInvalid(
        'not_received',
        `The ARECF says the e-CF was not received (CodigoMotivoNoRecibido ${checked.data.notReceivedReason ?? '?'}); it cannot prove sent.`,
      );
    }
    evidenceXml = request.evidence.arecfXml;
    evidence = {
      artifactId: '',
      sha256: fingerprint.evidenceSha256 ?? '',
      estado: checked.data.estado,
      acknowledgedAt: checked.data.acknowledgedAt,
      signer: checked.data.signer,
    };
  } else if (request.evidence !== undefined) {
    throw evidenceInvalid('evidence_not_applicable', 'The outcome dispatch_failed takes no evidence.');
  }

  // The ARECF is stored only if the delivery is still uncertain and unreconciled: one statement.
  const artifact =
    evidenceXml === undefined
      ? undefined
      : artifactInput({
          tenantId: document.tenantId,
          documentId: document.id,
          kind: 'receiver_acknowledgement',
          contentType: 'application/xml',
          content: evidenceXml,
          createdAt: at,
        });
  const artifactId = artifact?.id ?? null;
  if (evidence !== null && artifactId !== null) evidence = { ...evidence, artifactId };
  const stored: TStoredReconciliation = {
    outcome: request.outcome,
    note: request.note ?? null,
    reconciledAt: at.toISOString(),
    evidence,
    request: fingerprint,
  };
  const applied = await changeDelivery(sqlPoolOf(database), {
    documentId: document.id,
    from: { status: 'uncertain', unreconciled: true },
    set: {
      status: request.outcome,
      reconciled_at: at,
      reconciliation: stored,
      next_attempt_at: null,
      ...(artifactId === null ? {} : { arecf_artifact_id: artifactId }),
    },
    ...(artifact === undefined ? {} : { artifacts: [artifact] }),
    events: [
      {
        type: RECEIVER_DELIVERY_EVENT_TYPES.RECONCILED,
        data: { outcome: request.outcome, artifactId, note: request.note ?? null, at: at.toISOString() },
        at,
      },
    ],
  });

  const current = await getReceiverDelivery(database, document.id);
  // Another request reconciled it first: the same rules as for any reconciled delivery.
  if (!applied) return replayOrConflict(document, current, fingerprint);
  return responseOf(document, current);
}

function evidenceInvalid(reason: string, message: string): AppError {
  return new AppError('RECEIVER_DELIVERY_EVIDENCE_INVALID', message, { details: { reason, message } });
}

function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

function replayOrConflict(
  document: { id: string; encf: string; environment: Environment },
  delivery: ReceiverDelivery,
  fingerprint: TStoredReconciliation['request'],
): TReceiverDeliveryReconciliation {
  const stored = delivery.reconciliation as TStoredReconciliation | null;
  const previous = stored?.request;
  const reason =
    previous === undefined || previous.outcome !== fingerprint.outcome
      ? 'outcome_differs'
      : previous.evidenceSha256 !== fingerprint.evidenceSha256
        ? 'evidence_differs'
        : previous.note !== fingerprint.note
          ? 'note_differs'
          : undefined;
  if (reason !== undefined) {
    throw new AppError(
      'RECEIVER_DELIVERY_OUTCOME_CONFLICT',
      `This receiver delivery was already reconciled as ${stored?.outcome ?? delivery.status} with another request (${reason}).`,
      {
        details: {
          reason,
          status: delivery.status,
          reconciliation: stored === null ? null : publicOf(stored),
        },
      },
    );
  }
  return responseOf(document, delivery);
}

function publicOf(stored: TStoredReconciliation): Omit<TStoredReconciliation, 'request'> {
  return {
    outcome: stored.outcome,
    note: stored.note,
    reconciledAt: stored.reconciledAt,
    evidence: stored.evidence,
  };
}

function responseOf(
  document: { id: string; encf: string; environment: Environment },
  delivery: ReceiverDelivery,
): TReceiverDeliveryReconciliation {
  const stored = delivery.reconciliation as TStoredReconciliation;
  return {
    documentId: document.id,
    encf: document.encf,
    environment: document.environment,
    receiverDelivery: {
      status: delivery.status,
      attempts: delivery.attempts,
      targetUrl: delivery.targetUrl,
      arecfArtifactId: delivery.arecfArtifactId,
      reconciledAt: (delivery.reconciledAt ?? new Date(stored.reconciledAt)).toISOString(),
      reconciliation: publicOf(stored),
    },
  };
}
