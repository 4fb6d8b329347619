/**
 * What the Partner endpoint use-cases share: the subscription check against the Partner event
 * types (omitted: every type that exists now, Versioning 4) and the endpoint as the Partner API
 * shows it (never a secret; `overlapSeconds`: what is left of a rotation's window).
 */
import type { TPartnerWebhookEndpointRow } from '../persistence/index.ts';
import { PARTNER_WEBHOOK_EVENT_TYPES, expandWebhookEventTypes } from '@ecf/contract';
import { fieldError } from './webhook-endpoint-rules.ts';

export function checkedPartnerEventTypes(eventTypes: readonly string[] | undefined): string[] {
  if (eventTypes === undefined) return expandWebhookEventTypes('all', PARTNER_WEBHOOK_EVENT_TYPES);
  if (eventTypes.length === 0)
    throw fieldError(
      'eventTypes',
      'event_types_empty',
      'Omit eventTypes for every event type, or list at least one.',
    );
  const unknown = eventTypes.filter(
    (type) => !(PARTNER_WEBHOOK_EVENT_TYPES as readonly string[]).includes(type),
  );
  if (unknown.length > 0)
    throw fieldError('eventTypes', 'event_type_unknown', `Unknown event types: ${unknown.join(', ')}.`);
  return expandWebhookEventTypes(eventTypes, PARTNER_WEBHOOK_EVENT_TYPES);
}

/** A Partner endpoint as the API shows it. */
export type TPartnerWebhookEndpoint = {
  id: string;
  name: string;
  url: string;
  eventTypes: string[];
  status: 'active' | 'paused' | 'retired';
  overlapSeconds: number | null;
  createdAt: Date;
  updatedAt: Date;
};

export function partnerWebhookEndpointOf(
  row: TPartnerWebhookEndpointRow,
  now: Date,
): TPartnerWebhookEndpoint {
  const left =
    row.previousSecretExpiresAt === null
      ? 0
      : Math.ceil((row.previousSecretExpiresAt.getTime() - now.getTime()) / 1000);
  return {
    id: row.id,
    name: row.name,
    url: row.url,
    eventTypes: row.eventTypes,
    status: row.status,
    overlapSeconds: left > 0 ? left : null,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}
