import type { Environment, TDatabase, TEnqueue } from '@ecf/db';
import { sqlPoolOf } from '@ecf/db';
import { changeDocument, findCertificationItemOfDocument } from '../persistence/index.ts';
import { AppError } from '../shared/errors.ts';
import { isUuid } from '../shared/references.ts';
import { assertCertificationEnvironment } from './certification-guards.ts';

export type TResendResult = {
  documentId: string;
  encf: string;
  status: string;
  /** `signing` (not signed yet), `resent` (sent again after asking whether an earlier attempt arrived), `status_queried` (it has a TrackID). */
  action: 'signing' | 'resent' | 'status_queried';
};

const FINAL = new Set(['accepted', 'accepted_conditional', 'rejected', 'cancelled']);

/**
 * `POST /{environment}/certificacion/documentos/{documentId}/reenviar`: a certification receipt the
 * tax authority has not resolved goes again now, through the pipeline's own steps: with a TrackID
 * its status is queried; otherwise the transmission first asks whether an earlier attempt arrived
 * (ConsultaTrackIds for an e-CF, Consulta Estado for a summary) and sends the same signed XML only
 * if none did (an E32 is never signed again; its summary is rebuilt identical). A document stopped
 * as `transmission_failed` goes back to contingency to be sent again. 202 with the action; 404 for a
 * document that is not a certification receipt of the account; 409 `CERTIFICATION_DOCUMENT_NOT_RESENDABLE` for one already resolved.
 */
export async function resendCertificationDocument(options: {
  database: TDatabase;
  tenantId: string;
  environment: Environment;
  documentId: string;
  enqueue: TEnqueue;
  now: Date;
}): Promise<TResendResult> {
  assertCertificationEnvironment(options.environment);
  if (!isUuid(options.documentId)) throw new AppError('NOT_FOUND', 'No such document in this account.');
  const documentId = options.documentId.toLowerCase();
  const found = await findCertificationItemOfDocument(options.database, {
    tenantId: options.tenantId,
    documentId,
  });
  if (found === null) {
    throw new AppError('NOT_FOUND', 'No certification receipt of this account has this documentId.', {
      details: { documentId },
    });
  }
  const { item } = found;
  const status = item.documentStatus ?? 'unknown';
  if (FINAL.has(status)) {
    throw new AppError(
      'CERTIFICATION_DOCUMENT_NOT_RESENDABLE',
      `The tax authority already resolved ${item.encf} (${status}): there is nothing to resend.`,
      { details: { documentId, status } },
    );
  }
  const base = { documentId, encf: item.encf, status };
  if (status === 'queued_for_signing') {
    await options.enqueue([{ name: 'document.sign', payload: { documentId } }]);
    return { ...base, action: 'signing' };
  }
  if (status === 'sent') {
    await options.enqueue([{ name: 'document.poll-status', payload: { documentId } }]);
    return { ...base, action: 'status_queried' };
  }
  if (status === 'transmission_failed') {
    const moved = await changeDocument(sqlPoolOf(options.database), {
      documentId,
      from: ['transmission_failed'],
      set: { status: 'contingency', contingency_since: options.now },
      events: [
        {
          type: 'certification_resend',
          fromStatus: 'transmission_failed',
          toStatus: 'contingency',
          data: { requestedAt: options.now.toISOString() },
          at: options.now,
        },
      ],
      followUp: { jobs: [{ name: 'document.transmit', payload: { documentId } }], enqueue: options.enqueue },
    });
    return { ...base, status: moved.moved ? 'contingency' : status, action: 'resent' };
  }
  await options.enqueue([{ name: 'document.transmit', payload: { documentId } }]);
  return { ...base, action: 'resent' };
}
