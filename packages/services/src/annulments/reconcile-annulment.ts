import { createHash } from 'node:crypto';
import type { Environment, TDatabase } from '@ecf/db';
import { findAnnulment, reconcileUncertainAnnulment } from '../persistence/index.ts';
import { AppError } from '../shared/errors.ts';
import { annulmentViewOf, type TAnnulmentView } from './annulment-model.ts';
import { getAnnulment } from './get-annulment.ts';
import { settleAcceptedAnnulment } from './settle-accepted-annulment.ts';

/** The `codigo` a tax authority answer given as evidence must carry for each outcome (FACTS §1.9). */
const CODE_OF_OUTCOME = { accepted: '1', rejected: '2' } as const;

/**
 * `POST /{environment}/anulaciones-ecf/{annulmentId}/reconciliar`: fixes the outcome of an
 * `uncertain` annulment once, with its evidence stored as a write-once artifact. `accepted`
 * cancels the documents of the ranges that never left (like an acceptance); `rejected` frees the
 * ranges. The same outcome and evidence again is a replay (200, `replayed`); another outcome or
 * evidence after it is 409 `ANECF_RECONCILIATION_CONFLICT`; an annulment never `uncertain` is 409
 * `ANECF_NOT_UNCERTAIN`. Evidence that is a tax authority answer (`{ "codigo": ... }`) contradicting
 * the outcome is 409 `ANECF_RECONCILIATION_CONFLICT` (`details.reason` `evidence_incompatible`).
 */
export async function reconcileAnnulment(options: {
  database: TDatabase;
  tenantId: string;
  environment: Environment;
  annulmentId: string;
  outcome: 'accepted' | 'rejected';
  evidence: { content: string; contentType?: string };
  note?: string | null;
  now?: Date;
}): Promise<{ httpStatus: 200; replayed: boolean; annulment: TAnnulmentView }> {
  const { database, tenantId, environment, annulmentId, outcome } = options;
  const now = options.now ?? new Date();
  const current = await getAnnulment({ database, tenantId, environment, annulmentId, now });
  const evidenceSha256 = createHash('sha256')
    .update(Buffer.from(options.evidence.content, 'utf8'))
    .digest('hex');
  const answered = answerCodeOf(options.evidence.content);
  if (answered !== null && answered !== CODE_OF_OUTCOME[outcome])
    throw new AppError(
      'ANECF_RECONCILIATION_CONFLICT',
      `The evidence is an answer with codigo ${answered}, not ${outcome}.`,
      {
        details: { reason: 'evidence_incompatible', codigo: answered, outcome },
      },
    );

  if (current.status === 'uncertain') {
    const { changed } = await reconcileUncertainAnnulment(database, {
      annulmentId,
      tenantId,
      outcome,
      evidence: {
        content: options.evidence.content,
        contentType: options.evidence.contentType ?? 'text/plain',
      },
      note: options.note ?? null,
      at: now,
    });
    if (changed) {
      if (outcome === 'accepted') await settleAcceptedAnnulment({ database, annulmentId, now });
      const row = await findAnnulment(database, { tenantId, environment, annulmentId });
      if (!row) throw new AppError('NOT_FOUND', 'No such annulment.');
      return { httpStatus: 200, replayed: false, annulment: annulmentViewOf(row) };
    }
    // Another request reconciled it meanwhile: judged as a repeat below.
  }
  const latest =
    current.status === 'uncertain'
      ? await getAnnulment({ database, tenantId, environment, annulmentId, now })
      : current;
  const done = latest.reconciliation;
  if (done === null)
    throw new AppError(
      'ANECF_NOT_UNCERTAIN',
      `Only an uncertain annulment is reconciled; this one is ${latest.status}.`,
      {
        details: { status: latest.status },
      },
    );
  if (done.outcome !== outcome || done.evidenceSha256 !== evidenceSha256)
    throw new AppError(
      'ANECF_RECONCILIATION_CONFLICT',
      'The annulment was already reconciled with another outcome or evidence.',
      {
        details: { outcome: done.outcome, status: latest.status },
      },
    );
  return { httpStatus: 200, replayed: true, annulment: latest };
}

/** `codigo` of evidence that is a JSON tax authority answer, or null. */
function answerCodeOf(content: string): string | null {
  try {
    const parsed = JSON.parse(content) as unknown;
    if (parsed === null || typeof parsed !== 'object') return null;
    const code = (parsed as Record<string, unknown>)['codigo'];
    return typeof code === 'string' || typeof code === 'number' ? String(code).trim() : null;
  } catch {
    return null;
  }
}
