import type { TEnqueue } from '@ecf/db';
import { BUYER_DELIVERABLE_STATUSES } from '../documents/index.ts';
import type { TDocumentChange } from '../persistence/index.ts';
import { isDeliveredToReceiver } from '../receiver-delivery/index.ts';

/**
 * The next steps a final answer of the tax authority brings, committed with it or not at all: an
 * accepted type delivered to buyers (31, 33, 34, 44) gets its `pending` receiver delivery and
 * `document.deliver-to-receiver`; an accepted document of an account with buyer e-mail on in its
 * environment gets `document.email-buyer`. Nothing for a rejection, or without `enqueue`.
 */
export function acceptanceFollowUp(
  document: { id: string; type: number; buyerEmailEnabled: boolean },
  status: 'accepted' | 'accepted_conditional' | 'rejected',
  enqueue: TEnqueue | undefined,
): TDocumentChange['followUp'] {
  if (enqueue === undefined) return undefined;
  const delivers = status !== 'rejected' && isDeliveredToReceiver(document.type);
  const emails = BUYER_DELIVERABLE_STATUSES.has(status) && document.buyerEmailEnabled;
  const jobs = [
    ...(delivers
      ? [{ name: 'document.deliver-to-receiver' as const, payload: { documentId: document.id } }]
      : []),
    ...(emails ? [{ name: 'document.email-buyer' as const, payload: { documentId: document.id } }] : []),
  ];
  return jobs.length === 0 ? undefined : { receiverDelivery: delivers, jobs, enqueue };
}
