import type { ReactNode } from 'react';
import { requireActiveTenant } from '../../../server/page-access.ts';

/** Pages of one tenant's data: without an active tenant (none chosen, membership removed) → /accounts. */
export default async function TenantLayout({ children }: { children: ReactNode }) {
  await requireActiveTenant();
  return children;
}
