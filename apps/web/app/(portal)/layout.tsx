import type { ReactNode } from 'react';
import { cookies } from 'next/headers';
import { PortalShell } from '../../components/portal-shell.tsx';
import { ENVIRONMENT_COOKIE, isEnvironment } from '../../lib/environments.ts';
import { currentPathname, requirePortalSession } from '../../server/page-access.ts';
import { serverApi } from '../../server/trpc/server-caller.ts';

/** Every signed-in page: the session is checked in the database before anything renders. */
export default async function PortalLayout({ children }: { children: ReactNode }) {
  await requirePortalSession();
  const api = await serverApi();
  const current = await api.session.current();
  const tenants = current.user.isSupport
    ? (await api.support.tenants()).tenants.map((tenant) => ({
        id: tenant.id,
        label: `${tenant.name} (${tenant.rnc})`,
      }))
    : current.tenants.map((tenant) => ({ id: tenant.id, label: `${tenant.name} (${tenant.rnc})` }));
  const preferred = (await cookies()).get(ENVIRONMENT_COOKIE)?.value;
  return (
    <PortalShell
      pathname={await currentPathname()}
      user={current.user}
      tenants={tenants}
      activeTenantId={current.activeTenant?.id ?? null}
      capabilities={current.capabilities}
      environment={isEnvironment(preferred) ? preferred : null}
    >
      {children}
    </PortalShell>
  );
}
