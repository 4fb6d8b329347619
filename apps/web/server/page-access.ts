/**
 * The guards of the portal's pages (server components), on the session checked in PostgreSQL for
 * this request. Signed out → the sign-in page (coming back here after); no active tenant → the
 * account chooser; a role without the page's capability → 403 (`forbidden()`, app/forbidden.tsx).
 * Data still comes through procedures (serverApi), which check the same things again.
 */
import 'server-only';
import { headers } from 'next/headers';
import { forbidden, redirect } from 'next/navigation';
import {
  hasCapability,
  hasPartnerCapability,
  type TCapability,
  type TPartnerCapability,
  type TPortalSession,
  type TPrincipal,
} from '@ecf/services';
import { getPortalSession } from '../auth/portal-session.ts';

/** The path being rendered (set by proxy.ts). */
export async function currentPathname(): Promise<string> {
  return (await headers()).get('x-pathname') ?? '/';
}

export async function requirePortalSession(): Promise<TPortalSession> {
  const session = await getPortalSession();
  if (session === null) redirect(`/sign-in?callbackUrl=${encodeURIComponent(await currentPathname())}`);
  return session;
}

export type TTenantPageAccess = {
  session: TPortalSession;
  tenant: NonNullable<TPortalSession['activeTenant']>;
  principal: TPrincipal;
};

export async function requireActiveTenant(): Promise<TTenantPageAccess> {
  const session = await requirePortalSession();
  if (session.activeTenant === null || session.principal === null) redirect('/accounts');
  return { session, tenant: session.activeTenant, principal: session.principal };
}

/** A tenant page that needs `capability`: 403 for a role without it. */
export async function requirePageCapability(capability: TCapability): Promise<TTenantPageAccess> {
  const access = await requireActiveTenant();
  if (!hasCapability(access.principal, capability)) forbidden();
  return access;
}

export type TPartnerPageAccess = {
  session: TPortalSession;
  partner: NonNullable<TPortalSession['partner']>;
};

/** A Partner page (issue 20) that needs `capability`: 403 for someone who does not work for a Partner or whose role lacks it. */
export async function requirePartnerPageCapability(
  capability: TPartnerCapability,
): Promise<TPartnerPageAccess> {
  const session = await requirePortalSession();
  if (session.partner === null || !hasPartnerCapability(session.partner.role, capability)) forbidden();
  return { session, partner: session.partner };
}
