import type { ReactNode } from 'react';
import { notFound } from 'next/navigation';
import { Banner } from '@ecf/ui';
import { isEnvironment } from '../../../../lib/environments.ts';

/**
 * Environment-scoped pages live under `/{environment}/...` (TesteCF, CerteCF, eCF: the REST API's
 * spelling); anything else is 404. Pages read the environment from their `params` and pass it to
 * their procedures' input (the tenant still comes from the session). eCF is production: said on
 * every page of it.
 */
export default async function EnvironmentLayout(props: {
  children: ReactNode;
  params: Promise<{ environment: string }>;
}) {
  const { environment } = await props.params;
  if (!isEnvironment(environment)) notFound();
  return (
    <>
      {environment === 'eCF' ? (
        <Banner tone="warning" title="Producción (eCF)">
          Lo que haga aquí tiene efecto fiscal real.
        </Banner>
      ) : null}
      {props.children}
    </>
  );
}
