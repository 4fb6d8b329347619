import { cookies } from 'next/headers';
import { redirect } from 'next/navigation';
import { capabilitiesOf } from '@ecf/services';
import { DEFAULT_ENVIRONMENT, ENVIRONMENT_COOKIE, isEnvironment } from '../../lib/environments.ts';
import { homePathOf } from '../../lib/navigation.ts';
import { requirePortalSession } from '../../server/page-access.ts';

/** `/`: the first page the user may see in the active tenant (the account chooser without one). */
export default async function HomePage() {
  const session = await requirePortalSession();
  // Someone who works for a Partner and has no tenant chosen: the Partner's accounts.
  if (session.principal === null && session.partner !== null) redirect('/partner/accounts');
  if (session.principal === null) redirect('/accounts');
  const preferred = (await cookies()).get(ENVIRONMENT_COOKIE)?.value;
  redirect(
    homePathOf(capabilitiesOf(session.principal), isEnvironment(preferred) ? preferred : DEFAULT_ENVIRONMENT),
  );
}
