import { ALL_SCOPES, ENVIRONMENTS, type Environment, type TDatabase, type TScope } from '@ecf/db';
import { findTenant, insertAuditedApiKey } from '../persistence/index.ts';
import { AppError } from '../shared/errors.ts';
import { AUDIT_ACTIONS } from '../audit/audit-actions.ts';
import { assertCapability } from '../identity/assert-capability.ts';
import { grantableScopes, type TPortalActor } from '../identity/permissions.ts';

/** The longest name a key may have. */
export const API_KEY_NAME_MAX_LENGTH = 100;

/**
 * Creates an API key for one environment; the clear key is returned once and never stored (only
 * its SHA-256), and never written to the audit log. From the portal (`actor`): the member needs
 * `keys.manage` and may only grant scopes of `grantableScopes(role)` (never more power than their
 * role: FORBIDDEN with `details.reason` `scope_not_grantable`). Without an actor it is the
 * operator's admin CLI. The key and its audit entry commit together.
 */
export async function createApiKey(options: {
  database: TDatabase;
  tenantId: string;
  environment: Environment;
  scopes: TScope[];
  name?: string;
  actor?: TPortalActor;
  now?: () => Date;
}) {
  if (options.actor !== undefined) assertCapability(options.actor, 'keys.manage');
  if (!ENVIRONMENTS.includes(options.environment)) {
    throw new AppError('INVALID_REQUEST', `Unknown environment ${String(options.environment)}.`);
  }
  const unknown = options.scopes.filter((scope) => !ALL_SCOPES.includes(scope));
  if (unknown.length > 0 || options.scopes.length === 0) {
    throw new AppError('INVALID_REQUEST', `Scopes must be a non-empty subset of ${ALL_SCOPES.join(', ')}.`, {
      details: { unknownScopes: unknown },
    });
  }
  const name = options.name?.trim() || `${options.environment} key`;
  if (name.length > API_KEY_NAME_MAX_LENGTH)
    throw new AppError('INVALID_REQUEST', `A key name has at most ${API_KEY_NAME_MAX_LENGTH} characters.`);
  const { actor } = options;
  if (actor !== undefined) {
    const grantable: readonly TScope[] =
      actor.principal.kind === 'member' ? grantableScopes(actor.principal.role) : [];
    const refused = options.scopes.filter((scope) => !grantable.includes(scope));
    if (refused.length > 0)
      throw new AppError('FORBIDDEN', `This role may not grant ${refused.join(', ')}.`, {
        details: { reason: 'scope_not_grantable', scopes: refused },
      });
  }
  const tenant = await findTenant(options.database, { id: options.tenantId });
  if (!tenant) throw new AppError('NOT_FOUND', 'Tenant not found.');
  const { key, row } = await insertAuditedApiKey(
    options.database,
    {
      tenantId: tenant.id,
      environment: options.environment,
      scopes: ALL_SCOPES.filter((scope) => options.scopes.includes(scope)),
      name,
      at: (options.now ?? (() => new Date()))(),
    },
    {
      actorUserId: actor?.userId ?? null,
      action: AUDIT_ACTIONS.API_KEY_CREATED,
      ip: actor?.ip ?? null,
      data: { via: actor === undefined ? 'admin-cli' : 'portal' },
    },
  );
  return {
    key,
    apiKey: {
      id: row.id,
      prefix: row.prefix,
      environment: row.environment,
      scopes: row.scopes,
      name: row.name,
      createdAt: row.createdAt,
    },
  };
}
