/**
 * What the endpoint lifecycle use-cases share: the limits of an endpoint's fields, their checks as
 * field errors (`INVALID_REQUEST`, `details.issues` `[{ path, code, message }]`, the shape of the
 * transport's URL refusal), and the endpoint as callers see it (never a secret).
 */
import type { Environment } from '@ecf/db';
import type { TWebhookEndpointRow } from '../persistence/index.ts';
import { AppError } from '../shared/errors.ts';
import { expandWebhookEventTypes, isSubscribableWebhookEventType } from '@ecf/contract';

/** The longest endpoint name (spec, Limits: webhook name 200). */
export const WEBHOOK_NAME_MAX_LENGTH = 200;
/** The longest rotation overlap: 7 days. */
export const WEBHOOK_OVERLAP_MAX_SECONDS = 7 * 24 * 3600;

/** A refused field, in the shape of `assertWebhookTarget`'s refusal. */
export function fieldError(path: string, code: string, message: string): AppError {
  return new AppError('INVALID_REQUEST', message, {
    details: { reason: 'webhook_field_invalid', code, issues: [{ path, code, message }] },
  });
}

/** The name trimmed, 1 to 200 characters. */
export function checkedWebhookName(name: string): string {
  const trimmed = name.trim();
  if (trimmed === '') throw fieldError('name', 'name_required', 'The endpoint needs a name.');
  if (trimmed.length > WEBHOOK_NAME_MAX_LENGTH)
    throw fieldError('name', 'name_too_long', `A name has at most ${WEBHOOK_NAME_MAX_LENGTH} characters.`);
  return trimmed;
}

/**
 * The subscription to store: `'all'` is the types that exist now (Versioning 4), a list must be
 * non-empty and name only subscribable types.
 */
export function checkedWebhookEventTypes(eventTypes: 'all' | readonly string[]): string[] {
  if (eventTypes === 'all') return expandWebhookEventTypes('all');
  if (eventTypes.length === 0)
    throw fieldError('eventTypes', 'event_types_empty', 'Choose at least one event type.');
  const unknown = eventTypes.filter((type) => !isSubscribableWebhookEventType(type));
  if (unknown.length > 0)
    throw fieldError('eventTypes', 'event_type_unknown', `Unknown event types: ${unknown.join(', ')}.`);
  return expandWebhookEventTypes(eventTypes);
}

/** An endpoint as the portal (and later the Partner API) shows it. */
export type TWebhookEndpoint = {
  id: string;
  environment: Environment;
  name: string;
  url: string;
  eventTypes: string[];
  status: 'active' | 'paused' | 'retired';
  /** Set while a rotation's overlap lasts: the previous secret still signs until then. */
  previousSecretExpiresAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
  retiredAt: Date | null;
};

export function webhookEndpointOf(row: TWebhookEndpointRow, now: Date): TWebhookEndpoint {
  return {
    id: row.id,
    environment: row.environment,
    name: row.name,
    url: row.url,
    eventTypes: row.eventTypes,
    status: row.status,
    previousSecretExpiresAt:
      row.previousSecretExpiresAt !== null && row.previousSecretExpiresAt > now
        ? row.previousSecretExpiresAt
        : null,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    retiredAt: row.retiredAt,
  };
}
