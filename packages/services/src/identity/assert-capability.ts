import { AppError } from '../shared/errors.ts';
import { hasCapability, type TCapability, type TPortalActor } from './permissions.ts';

/**
 * FORBIDDEN unless the actor has the capability. The portal checks it before calling a use-case
 * (`tenantProcedure`); the use-cases that change members check it again, so no transport can skip it.
 */
export function assertCapability(actor: TPortalActor, capability: TCapability): void {
  if (!hasCapability(actor.principal, capability))
    throw new AppError('FORBIDDEN', `This role may not do ${capability}.`, { details: { capability } });
}
