import type { TDatabase } from '@ecf/db';
import { markCommercialApprovalsDue } from '../persistence/index.ts';

/** Announce an unanswered received e-CF this many days (or fewer) before its deadline. */
export const COMMERCIAL_APPROVAL_DUE_WITHIN_DAYS = 3;

/**
 * The hourly sweep behind `document.commercial_approval_due`: every received e-CF still unanswered
 * (no active commercial approval) whose deadline (day 15 of the month after its `FechaEmision`) is
 * 3 Dominican days away or fewer, and not yet past, is marked `approvalDueNotifiedAt`; the marking
 * statement's trigger writes the outbox event, so each e-CF is announced once, whoever runs the sweep.
 */
export async function announceCommercialApprovalsDue(options: { database: TDatabase; now: () => Date }) {
  const marked = await markCommercialApprovalsDue(options.database, {
    now: options.now(),
    withinDays: COMMERCIAL_APPROVAL_DUE_WITHIN_DAYS,
  });
  return { announced: marked.length, inboundDocumentIds: marked.map((row) => row.id) };
}
