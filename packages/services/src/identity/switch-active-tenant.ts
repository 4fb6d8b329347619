import type { TDatabase } from '@ecf/db';
import { findTenant, setSessionActiveTenant } from '../persistence/index.ts';
import { AppError } from '../shared/errors.ts';
import { isUuid } from '../shared/references.ts';
import type { TPortalSession } from './validate-portal-session.ts';

/**
 * Moves a session to another tenant: one of the user's memberships, or, for support, any tenant.
 * Anything else is NOT_FOUND (a tenant the user does not belong to is not revealed to exist).
 */
export async function switchActiveTenant(options: {
  database: TDatabase;
  session: TPortalSession;
  tenantId: string;
}): Promise<{ tenantId: string }> {
  const { database, session } = options;
  if (!isUuid(options.tenantId)) throw new AppError('NOT_FOUND', 'Tenant not found.');
  const allowed = session.user.isSupport
    ? (await findTenant(database, { id: options.tenantId })) !== null
    : session.tenants.some((tenant) => tenant.tenantId === options.tenantId);
  if (!allowed) throw new AppError('NOT_FOUND', 'Tenant not found.');
  const moved = await setSessionActiveTenant(database, {
    sessionId: session.sessionId,
    tenantId: options.tenantId,
  });
  if (!moved) throw new AppError('SESSION_INVALID', 'The session is no longer valid.');
  return { tenantId: options.tenantId };
}
