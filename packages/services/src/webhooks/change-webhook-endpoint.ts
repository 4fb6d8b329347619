/**
 * What both owners' endpoints go through, once: the preparation of a new endpoint (name, URL
 * target rules, id, sealed secret), a PATCH (status, name, URL with the target rules again, event
 * types) and a secret rotation, on the owner's endpoint only (another owner's is
 * NOT_FOUND). The direct use-cases (`update-webhook-endpoint.ts`, `rotate-webhook-secret.ts`: a
 * person's capability, the audit entry, the portal's view) and the Partner's
 * (`update-partner-webhook-endpoint.ts`, `rotate-partner-webhook-secret.ts`: its event types, its
 * view) are facades over these.
 */
import { randomUUID } from 'node:crypto';
import type { TDatabase, TEnqueue } from '@ecf/db';
import type { TCertificateKeyring } from '../accounts/certificate-keyring.ts';
import {
  rotateWebhookSecretRow,
  updateWebhookEndpointRow,
  type TEndpointAuditEntry,
  type TEndpointChanges,
  type TEndpointRowOf,
  type TSealedSecret,
  type TWebhookEndpointOwner,
} from '../persistence/index.ts';
import { AppError } from '../shared/errors.ts';
import { isUuid } from '../shared/references.ts';
import { assertWebhookTarget, type TWebhookResolver } from './transport/index.ts';
import { checkedWebhookName, fieldError } from './webhook-endpoint-rules.ts';
import { generateWebhookSecret, sealWebhookSecret } from './webhook-secrets.ts';

/** What a PATCH may change; absent fields stay as they are. */
export type TEndpointPatch<TEventTypes> = {
  /** `paused`: deliveries wait (no attempt used) and continue on reactivation (`active`). */
  status?: 'active' | 'paused';
  name?: string;
  url?: string;
  eventTypes?: TEventTypes;
};

function endpointNotFound(): AppError {
  return new AppError('NOT_FOUND', 'Webhook endpoint not found.');
}

function endpointRetired(): AppError {
  return new AppError('WEBHOOK_ENDPOINT_RETIRED', 'This webhook endpoint was retired.');
}

/**
 * Changes the owner's endpoint: a retired one is 409 `WEBHOOK_ENDPOINT_RETIRED`; on resume its
 * waiting deliveries are due at once (their jobs commit with the change). `emptyPath` names the
 * whole input in the "nothing to change" refusal (the portal's form, the Partner's body).
 */
export async function changeWebhookEndpoint<TOwner extends TWebhookEndpointOwner, TEventTypes>(options: {
  database: TDatabase;
  owner: TOwner;
  endpointId: string;
  patch: TEndpointPatch<TEventTypes>;
  checkEventTypes: (eventTypes: TEventTypes) => string[];
  emptyPath: string;
  allowPrivateTargets: boolean;
  enqueue: TEnqueue;
  resolve?: TWebhookResolver | undefined;
  audit?: TEndpointAuditEntry | undefined;
  at: Date;
}): Promise<TEndpointRowOf<TOwner>> {
  if (!isUuid(options.endpointId)) throw endpointNotFound();
  const { patch } = options;
  if (
    patch.status === undefined &&
    patch.name === undefined &&
    patch.url === undefined &&
    patch.eventTypes === undefined
  )
    throw fieldError(options.emptyPath, 'patch_empty', 'Nothing to change.');
  if (patch.status !== undefined && patch.status !== 'active' && patch.status !== 'paused')
    throw fieldError('status', 'status_invalid', 'The status is active or paused (DELETE retires).');
  const changes: TEndpointChanges = {
    ...(patch.status === undefined ? {} : { status: patch.status }),
    ...(patch.name === undefined ? {} : { name: checkedWebhookName(patch.name) }),
    ...(patch.eventTypes === undefined ? {} : { eventTypes: options.checkEventTypes(patch.eventTypes) }),
  };
  if (patch.url !== undefined) {
    changes.url = patch.url.trim();
    await assertWebhookTarget(changes.url, {
      allowPrivateTargets: options.allowPrivateTargets,
      resolve: options.resolve,
    });
  }
  const result = await updateWebhookEndpointRow(
    options.database,
    {
      owner: options.owner,
      endpointId: options.endpointId,
      changes,
      at: options.at,
      enqueue: options.enqueue,
    },
    options.audit,
  );
  if (result.kind === 'not_found') throw endpointNotFound();
  if (result.kind === 'retired') throw endpointRetired();
  return result.row;
}

/**
 * A new signing secret for the owner's endpoint, returned ONCE (`signingSecret`); the previous one
 * keeps signing beside it (two `v1`) for `overlapSeconds`. A second rotation while that window is
 * open is 409 `WEBHOOK_ROTATION_IN_PROGRESS` (`details.previousSecretExpiresAt`); a retired
 * endpoint is 409 `WEBHOOK_ENDPOINT_RETIRED`.
 */
export async function rotateEndpointSecret<TOwner extends TWebhookEndpointOwner>(options: {
  database: TDatabase;
  owner: TOwner;
  endpointId: string;
  overlapSeconds: number;
  keyring: TCertificateKeyring;
  audit?: TEndpointAuditEntry | undefined;
  at: Date;
}): Promise<{ row: TEndpointRowOf<TOwner>; signingSecret: string }> {
  if (!isUuid(options.endpointId)) throw endpointNotFound();
  const signingSecret = generateWebhookSecret();
  const result = await rotateWebhookSecretRow(
    options.database,
    {
      owner: options.owner,
      endpointId: options.endpointId,
      secret: sealWebhookSecret({
        keyring: options.keyring,
        endpointId: options.endpointId,
        secret: signingSecret,
      }),
      overlapSeconds: options.overlapSeconds,
      at: options.at,
    },
    options.audit,
  );
  if (result.kind === 'not_found') throw endpointNotFound();
  if (result.kind === 'retired') throw endpointRetired();
  if (result.kind === 'in_progress')
    throw new AppError('WEBHOOK_ROTATION_IN_PROGRESS', 'A secret rotation is still in its overlap window.', {
      details: { previousSecretExpiresAt: result.row.previousSecretExpiresAt?.toISOString() ?? null },
    });
  return { row: result.row, signingSecret };
}

/**
 * What a new endpoint of either owner is before its row: the name checked, the URL trimmed and
 * through every target rule (DNS included), its id, and its signing secret (shown ONCE) with the
 * sealed copy that is stored (bound to the id).
 */
export async function prepareWebhookEndpoint(options: {
  name: string;
  url: string;
  keyring: TCertificateKeyring;
  allowPrivateTargets: boolean;
  resolve?: TWebhookResolver | undefined;
}): Promise<{ id: string; name: string; url: string; signingSecret: string; secret: TSealedSecret }> {
  const name = checkedWebhookName(options.name);
  const url = options.url.trim();
  await assertWebhookTarget(url, {
    allowPrivateTargets: options.allowPrivateTargets,
    resolve: options.resolve,
  });
  const id = randomUUID();
  const signingSecret = generateWebhookSecret();
  return {
    id,
    name,
    url,
    signingSecret,
    secret: sealWebhookSecret({ keyring: options.keyring, endpointId: id, secret: signingSecret }),
  };
}
