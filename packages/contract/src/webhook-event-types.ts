/**
 * The webhook event types the engine produces today, and how an endpoint's subscription is stored:
 * always as an explicit list, "all" being expanded to the types that exist when the endpoint is
 * saved (Versioning 4: a type added later is not delivered to it until its `eventTypes` are patched).
 */

/** Every type the engine produces. `webhook.test` goes only to the endpoint a test targets. */
export const WEBHOOK_EVENT_TYPES = [
  'ecf.queued',
  'document.state_changed',
  'taxauth.service_degraded',
  'taxauth.service_restored',
  'annulment.state_changed',
  // Receiving (issue 18): the direct name of a received e-CF, its Partner name, the customers'
  // commercial approvals, and the approaching deadline of an unanswered received e-CF.
  'taxauth.public.receiver.ecf.received',
  'document.received',
  'document.commercial_approval_received',
  'document.commercial_approval_due',
  // Certification (issue 19): a case's state or step changed; a run ended successfully.
  'certification.state_changed',
  'certification.run_completed',
  // Partner only (issue 20): certificates and the eCF authorization of an account.
  'certificate.validated',
  'certificate.expiring',
  'certificate.expired',
  'production.state_changed',
  'webhook.test',
] as const;

export type TWebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** The types a direct-account endpoint can subscribe to today (what "all" means now). */
export const DIRECT_WEBHOOK_EVENT_TYPES = [
  'ecf.queued',
  'document.state_changed',
  'taxauth.service_degraded',
  'taxauth.service_restored',
  'annulment.state_changed',
  'taxauth.public.receiver.ecf.received',
  'document.commercial_approval_received',
  'document.commercial_approval_due',
  'certification.state_changed',
  'certification.run_completed',
  'production.state_changed',
] as const satisfies readonly TWebhookEventType[];

/**
 * The types a Partner endpoint will subscribe to that differ from the direct names: a received
 * e-CF is `document.received` there (`taxauth.public.receiver.ecf.received` for direct endpoints).
 */
export const PARTNER_ONLY_WEBHOOK_EVENT_TYPES: readonly TWebhookEventType[] = ['document.received'];

/**
 * The types a Partner endpoint can subscribe to today (what omitting `eventTypes` means now): the
 * contract's Partner event list. An outage episode reaches a Partner once per affected account
 * (migration 0019 writes a row per account). `webhook.test` may be listed (the contract names it a
 * Partner type) but changes nothing: a test goes to the endpoint it targets, listed or not, and
 * never fans out.
 */
export const PARTNER_WEBHOOK_EVENT_TYPES = [
  'ecf.queued',
  'document.state_changed',
  'annulment.state_changed',
  'document.received',
  'document.commercial_approval_received',
  'document.commercial_approval_due',
  'certificate.validated',
  'certificate.expiring',
  'certificate.expired',
  'production.state_changed',
  'certification.state_changed',
  'certification.run_completed',
  'taxauth.service_degraded',
  'taxauth.service_restored',
  'webhook.test',
] as const satisfies readonly TWebhookEventType[];

/** The outage episode events (environment-wide for direct endpoints, per account for Partners). */
export const OUTAGE_WEBHOOK_EVENT_TYPES: readonly TWebhookEventType[] = [
  'taxauth.service_degraded',
  'taxauth.service_restored',
];

/** True for a type an endpoint may list in `eventTypes`. */
export function isSubscribableWebhookEventType(type: string): boolean {
  return (DIRECT_WEBHOOK_EVENT_TYPES as readonly string[]).includes(type);
}

/**
 * The list to store for a subscription: `'all'` becomes the types that exist now; an explicit list
 * is deduplicated and sorted (unknown types must be refused by the caller's schema first).
 */
export function expandWebhookEventTypes(
  input: 'all' | readonly string[],
  available: readonly string[] = DIRECT_WEBHOOK_EVENT_TYPES,
): string[] {
  const types = input === 'all' ? available : input;
  return [...new Set(types)].sort();
}

/** A delivery's states (the delivery log of both APIs and the portal), and its pages' sizes. */
export const WEBHOOK_DELIVERY_STATUSES = ['queued', 'running', 'succeeded', 'failed'] as const;
export const WEBHOOK_DELIVERIES_DEFAULT_LIMIT = 25;
export const WEBHOOK_DELIVERIES_MAX_LIMIT = 100;
