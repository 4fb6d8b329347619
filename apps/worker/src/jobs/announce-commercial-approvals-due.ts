import type { TJobPayload } from '@ecf/db';
import { announceCommercialApprovalsDue } from '@ecf/services';
import type { TJobContext } from './context.ts';

/**
 * The hourly sweep of `document.commercial_approval_due`: marks each unanswered received e-CF 3
 * days or fewer before its deadline, once; the marking statement writes the outbox event.
 */
export async function announceCommercialApprovalsDueJob(
  _payload: TJobPayload<'maintenance.commercial-approvals-due'>,
  context: TJobContext,
) {
  const result = await announceCommercialApprovalsDue({ database: context.database, now: context.now });
  if (result.announced > 0)
    context.log.info({ announced: result.announced }, 'commercial approvals due announced');
}
