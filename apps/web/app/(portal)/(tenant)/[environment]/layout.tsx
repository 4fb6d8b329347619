import type { ReactNode } from 'react';
import { notFound } from 'next/navigation';
import { Banner } from '@ecf/ui';
import { isEnvironment } from '../../../../lib/environments.ts';
import { requireActiveTenant } from '../../../../server/page-access.ts';
import { activeProductionState } from '../../../../server/production-state.ts';

/** What an eCF page says while production is not open to the account (issue 27), by production state. */
const PRODUCTION_CLOSED = {
  not_requested: {
    tone: 'info',
    title: 'La producción se abre después de la certificación',
    text: 'Para emitir en eCF, complete los 15 pasos de la certificación en CerteCF y luego solicite la producción.',
    link: 'Ir a la certificación',
  },
  pending: {
    tone: 'info',
    title: 'La producción está en trámite',
    text: 'Se solicitó al terminar la certificación; se abre cuando la DGII lista su RNC como emisor electrónico.',
    link: 'Ver la certificación',
  },
  suspended: {
    tone: 'warning',
    title: 'La producción está suspendida',
    text: 'Mientras esté suspendida no se puede emitir en eCF. Comuníquese con soporte.',
    link: 'Ver la certificación',
  },
} as const;

/**
 * Environment-scoped pages live under `/{environment}/...` (TesteCF, CerteCF, eCF: the REST API's
 * spelling); anything else is 404. Pages read the environment from their `params` and pass it to
 * their procedures' input (the tenant still comes from the session). eCF is production: said on
 * every page of it; while production is not active, what opens it instead (nothing there has a
 * fiscal effect yet, and emission, ranges and annulments are refused).
 */
export default async function EnvironmentLayout(props: {
  children: ReactNode;
  params: Promise<{ environment: string }>;
}) {
  const { environment } = await props.params;
  if (!isEnvironment(environment)) notFound();
  let productionState: keyof typeof PRODUCTION_CLOSED | 'active' = 'active';
  if (environment === 'eCF') {
    // Layouts render alongside the tenant layout: check the session here too before a procedure.
    await requireActiveTenant();
    productionState = await activeProductionState();
  }
  const closed = productionState === 'active' ? null : PRODUCTION_CLOSED[productionState];
  return (
    <>
      {environment === 'eCF' && closed === null ? (
        <Banner tone="warning" title="Producción (eCF)">
          Lo que haga aquí tiene efecto fiscal real.
        </Banner>
      ) : null}
      {closed === null ? null : (
        <Banner tone={closed.tone} title={closed.title}>
          {closed.text} <a href="/CerteCF/certification">{closed.link}</a>.
        </Banner>
      )}
      {props.children}
    </>
  );
}
