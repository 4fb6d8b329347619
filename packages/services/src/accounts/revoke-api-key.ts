import type { TDatabase } from '@ecf/db';
import { findTenantApiKey, revokeAuditedApiKey, type TApiKeyRow } from '../persistence/index.ts';
import { AppError } from '../shared/errors.ts';
import { isUuid } from '../shared/references.ts';
import { AUDIT_ACTIONS } from '../audit/audit-actions.ts';
import { assertCapability } from '../identity/assert-capability.ts';
import type { TPortalActor } from '../identity/permissions.ts';

/**
 * Revokes a key (by id or visible prefix) of a tenant: the API refuses it from then on (401).
 * Revoking twice is harmless (one audit entry). From the portal (`actor`) the member needs
 * `keys.manage`; without an actor it is the operator's admin CLI. NOT_FOUND for another tenant's key.
 */
export async function revokeApiKey(options: {
  database: TDatabase;
  tenantId: string;
  reference: string;
  actor?: TPortalActor;
  now?: () => Date;
}): Promise<TApiKeyRow> {
  if (options.actor !== undefined) assertCapability(options.actor, 'keys.manage');
  const key = await findTenantApiKey(options.database, {
    tenantId: options.tenantId,
    ...(isUuid(options.reference) ? { id: options.reference } : { prefix: options.reference }),
  });
  if (!key) throw new AppError('NOT_FOUND', 'API key not found for this tenant.');
  const revoked = await revokeAuditedApiKey(
    options.database,
    { tenantId: options.tenantId, apiKeyId: key.id, at: (options.now ?? (() => new Date()))() },
    {
      actorUserId: options.actor?.userId ?? null,
      action: AUDIT_ACTIONS.API_KEY_REVOKED,
      ip: options.actor?.ip ?? null,
      data: { via: options.actor === undefined ? 'admin-cli' : 'portal' },
    },
  );
  if (!revoked) throw new AppError('NOT_FOUND', 'API key not found for this tenant.');
  return revoked;
}
