import type { Environment, TDatabase, TEnqueue } from '@ecf/db';
import {
  findActiveCommercialApproval,
  findArtifactContent,
  findInboundForApproval,
  findLatestCommercialApproval,
  reconcileCommercialApprovalRow,
  type TCommercialApprovalColumns,
  type TCommercialApprovalRow,
} from '../persistence/index.ts';
import { AppError } from '../shared/errors.ts';
import type { TCommercialApprovalReconciliationRequest } from '@ecf/contract';
import { createHash } from 'node:crypto';
import {
  commercialApprovalViewOf,
  retentionDateOf,
  type TCommercialApprovalView,
} from './commercial-approval-rules.ts';

/**
 * `POST .../aprobacion-comercial/reconciliar`: fixes, once and immutably, the outcome of an
 * approval left `uncertain` (its dispatch, or its submission to the tax authority). The same
 * request again answers the same 200 (replay); another outcome, evidence or note on a reconciled
 * approval, or an approval that is not uncertain, is 409 `COMMERCIAL_APPROVAL_NOT_UNCERTAIN`.
 * Nothing is sent on the network.
 */
export async function reconcileCommercialApproval(options: {
  database: TDatabase;
  tenantId: string;
  environment: Environment;
  inboundDocumentId: string;
  request: TCommercialApprovalReconciliationRequest;
  enqueue: TEnqueue;
  now?: () => Date;
}): Promise<{ replayed: boolean; commercialApproval: TCommercialApprovalView }> {
  const { database, request } = options;
  const now = options.now ?? (() => new Date());
  const inbound = await findInboundForApproval(database, {
    tenantId: options.tenantId,
    environment: options.environment,
    inboundDocumentId: options.inboundDocumentId,
  });
  if (inbound === null || inbound.kind !== 'ecf')
    throw new AppError(
      'RECEIVED_DOCUMENT_NOT_FOUND',
      'No received e-CF with this id in this account and environment.',
    );
  const row =
    (await findActiveCommercialApproval(database, inbound.id)) ??
    (await findLatestCommercialApproval(database, inbound.id));
  if (row === null)
    throw new AppError(
      'COMMERCIAL_APPROVAL_NOT_UNCERTAIN',
      'No commercial approval was sent for this e-CF.',
      {
        details: { status: null },
      },
    );
  if (row.reconciledAt !== null) return replay(options, row, request);

  const onTaxauth = request.outcome === 'taxauth_accepted' || request.outcome === 'taxauth_rejected';
  const uncertain = onTaxauth ? row.taxauthStatus === 'uncertain' : row.dispatchStatus === 'uncertain';
  if (!uncertain || row.supersededAt !== null)
    throw new AppError(
      'COMMERCIAL_APPROVAL_NOT_UNCERTAIN',
      onTaxauth
        ? 'Only a submission to the tax authority without a known outcome can be reconciled.'
        : 'Only a dispatch in uncertain can be reconciled.',
      {
        details: {
          status: onTaxauth ? row.taxauthStatus : row.dispatchStatus,
          taxauthStatus: row.taxauthStatus,
          dispatchStatus: row.dispatchStatus,
        },
      },
    );

  const at = now();
  let set: TCommercialApprovalColumns;
  let dispatchAfter = false;
  if (request.outcome === 'sent' || request.outcome === 'dispatch_failed') {
    set = { dispatch_status: request.outcome, next_attempt_at: null };
  } else if (request.outcome === 'taxauth_rejected') {
    set = { taxauth_status: 'rejected', dispatch_status: 'not_applicable', superseded_at: at };
  } else {
    dispatchAfter = row.targetUrl !== null;
    set = { taxauth_status: 'accepted', dispatch_status: dispatchAfter ? 'pending' : 'not_applicable' };
  }
  const evidence =
    request.evidence === undefined
      ? null
      : { content: request.evidence.content, contentType: request.evidence.contentType ?? 'text/plain' };
  const changed = await reconcileCommercialApprovalRow(database, {
    id: row.id,
    tenantId: row.tenantId,
    from: onTaxauth ? { taxauthStatus: 'uncertain' } : { dispatchStatus: 'uncertain' },
    set,
    evidence,
    reconciliation: (artifact) => ({
      outcome: request.outcome,
      note: request.note ?? null,
      reconciledAt: at.toISOString(),
      evidence:
        artifact === null || evidence === null
          ? null
          : { artifactId: artifact.id, sha256: artifact.sha256, contentType: evidence.contentType },
    }),
    at,
    retainUntil: retentionDateOf(at),
    ...(dispatchAfter
      ? {
          followUp: {
            enqueue: options.enqueue,
            jobs: [
              {
                name: 'commercial-approval.dispatch',
                payload: { commercialApprovalId: row.id },
                startAfterSeconds: 0,
              },
            ],
          },
        }
      : {}),
  });
  if (changed === null) {
    // Reconciled concurrently: the stored one decides.
    const stored = await findLatestCommercialApproval(database, inbound.id);
    if (stored === null || stored.reconciledAt === null)
      throw new Error('reconcileCommercialApproval: lost the row');
    return replay(options, stored, request);
  }
  return { replayed: false, commercialApproval: commercialApprovalViewOf(changed) };
}

/** A reconciled approval: the same request is a replay (200), anything else 409. */
async function replay(
  options: { database: TDatabase; tenantId: string },
  row: TCommercialApprovalRow,
  request: TCommercialApprovalReconciliationRequest,
): Promise<{ replayed: boolean; commercialApproval: TCommercialApprovalView }> {
  const stored = (row.reconciliation ?? {}) as {
    outcome?: string;
    note?: string | null;
    evidence?: { artifactId: string; sha256: string; contentType: string } | null;
  };
  const conflict = (reason: string): AppError =>
    new AppError(
      'COMMERCIAL_APPROVAL_NOT_UNCERTAIN',
      'This commercial approval was already reconciled otherwise.',
      {
        details: { reason, status: row.dispatchStatus, reconciliation: row.reconciliation },
      },
    );
  if (stored.outcome !== request.outcome) throw conflict('outcome_differs');
  if ((stored.note ?? null) !== (request.note ?? null)) throw conflict('note_differs');
  const evidence = request.evidence;
  if ((stored.evidence ?? null) === null) {
    if (evidence !== undefined) throw conflict('evidence_differs');
  } else {
    if (evidence === undefined) throw conflict('evidence_differs');
    const artifact = await findArtifactContent(options.database, {
      tenantId: options.tenantId,
      artifactId: stored.evidence?.artifactId ?? '',
    });
    const sha256 = createHash('sha256').update(Buffer.from(evidence.content, 'utf8')).digest('hex');
    if (
      artifact === null ||
      artifact.sha256 !== sha256 ||
      (evidence.contentType ?? 'text/plain') !== stored.evidence?.contentType
    )
      throw conflict('evidence_differs');
  }
  return { replayed: true, commercialApproval: commercialApprovalViewOf(row) };
}
