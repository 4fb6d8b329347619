import { TRPCError } from '@trpc/server';
import type { z } from 'zod';
import { hasCapability } from '@ecf/services';
import { Banner, EmptyState, LinkButton, PageHeader, Panel, Table } from '@ecf/ui';
import { AnnulmentForm } from '../../../../../components/annulment-form.tsx';
import styles from '../../../../../components/annulments.module.css';
import { ANNULMENT_STATUS_LABELS } from '../../../../../lib/annulment-schemas.ts';
import { ENVIRONMENT_LABELS, isEnvironment } from '../../../../../lib/environments.ts';
import { formatShortDateTime } from '../../../../../lib/format.ts';
import { requirePageCapability } from '../../../../../server/page-access.ts';
import {
  ANNULMENT_STATES,
  type ZListAnnulmentsOutput,
} from '../../../../../server/routers/annulments/annulment.schema.ts';
import { serverApi } from '../../../../../server/trpc/server-caller.ts';

export const metadata = { title: 'Anulaciones' };

type TSearchParams = Record<string, string | string[] | undefined>;
type TAnnulmentState = (typeof ANNULMENT_STATES)[number];

const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);
const isState = (value: string | undefined): value is TAnnulmentState =>
  (ANNULMENT_STATES as readonly string[]).includes(value ?? '');
const count = (value: number) => value.toLocaleString('es-DO');

/**
 * Annulment of unused eNCF ranges (ANECF) in one environment: owners and developers prevalidate
 * (conflicts per document) and send; everyone with access sees the list (newest first, by state,
 * 50 per page) and each annulment's page, where an uncertain one is reconciled. Not in CerteCF
 * (annulments are eCF operations, tested in TesteCF).
 */
export default async function AnnulmentsPage(props: {
  params: Promise<{ environment: string }>;
  searchParams: Promise<TSearchParams>;
}) {
  const { environment } = await props.params;
  const { principal } = await requirePageCapability('annulments.read');
  if (!isEnvironment(environment)) return null; // the environment layout answered 404 already
  const canManage = hasCapability(principal, 'annulments.manage');
  const searchParams = await props.searchParams;
  const statusText = first(searchParams['status']);
  const status = isState(statusText) ? statusText : undefined;
  const cursor = first(searchParams['cursor']) || undefined;
  let page: z.infer<typeof ZListAnnulmentsOutput> = { items: [], nextCursor: null };
  let problem: string | null = null;
  if (environment !== 'CerteCF') {
    try {
      page = await (await serverApi()).annulments.list({ environment, status, cursor });
    } catch (error) {
      if (!(error instanceof TRPCError) || error.code !== 'BAD_REQUEST') throw error;
      problem = 'El enlace de la página siguiente no corresponde a este filtro: vuelva a elegirlo.';
    }
  }
  const hrefOf = (query: Record<string, string>) => {
    const text = new URLSearchParams(query).toString();
    return `/${environment}/annulments${text === '' ? '' : `?${text}`}`;
  };
  const nextHref =
    page.nextCursor === null ? null : hrefOf({ ...(status ? { status } : {}), cursor: page.nextCursor });
  return (
    <>
      <PageHeader
        title="Anulaciones"
        description={`Anule con la DGII los e-NCF de ${ENVIRONMENT_LABELS[environment]} que no usará (un punto de venta retirado, una serie mal impresa). Solo se anulan números sin usar o e-CF firmados que nunca salieron hacia la DGII ni hacia el comprador.`}
      />
      {environment === 'CerteCF' ? (
        <Banner tone="info">Las anulaciones no existen en CerteCF: pruébelas en TesteCF.</Banner>
      ) : canManage ? (
        <Panel title="Anular rangos" id="anular-rangos">
          <AnnulmentForm environment={environment} />
        </Panel>
      ) : (
        <Banner tone="info">Su rol puede consultar anulaciones, pero no enviarlas.</Banner>
      )}
      {environment === 'CerteCF' ? null : (
        <Panel title="Anulaciones enviadas">
          <nav aria-label="Filtrar por estado" className={styles.actions}>
            <a href={hrefOf({})} aria-current={status === undefined ? 'page' : undefined}>
              Todas
            </a>
            {ANNULMENT_STATES.map((state) => (
              <a
                key={state}
                href={hrefOf({ status: state })}
                aria-current={status === state ? 'page' : undefined}
              >
                {ANNULMENT_STATUS_LABELS[state] ?? state}
              </a>
            ))}
          </nav>
          {problem ? <Banner tone="danger">{problem}</Banner> : null}
          <Table
            caption="Anulaciones enviadas"
            captionHidden
            rows={page.items}
            rowKey={(item) => item.id}
            empty={
              problem !== null ? (
                'Sin resultados: vuelva a elegir el filtro.'
              ) : status ? (
                <EmptyState
                  title="No hay anulaciones en este estado."
                  action={{ href: hrefOf({}), label: 'Ver todas las anulaciones' }}
                />
              ) : canManage ? (
                <EmptyState
                  title="Todavía no se ha enviado ninguna anulación."
                  action={{ href: '#anular-rangos', label: 'Anular rangos' }}
                >
                  Cuando tenga e-NCF que no usará, anúlelos con la DGII desde el formulario de esta página.
                </EmptyState>
              ) : (
                <EmptyState title="Todavía no se ha enviado ninguna anulación.">
                  Un propietario o un desarrollador de la cuenta puede enviarlas.
                </EmptyState>
              )
            }
            columns={[
              {
                header: 'Enviada',
                nowrap: true,
                rowHeader: true,
                cell: (item) => (
                  <a href={`/${environment}/annulments/${item.id}`}>{formatShortDateTime(item.createdAt)}</a>
                ),
              },
              { header: 'Estado', cell: (item) => ANNULMENT_STATUS_LABELS[item.status] ?? item.status },
              {
                header: 'Rangos',
                cell: (item) => (
                  <span className={styles.code}>
                    {item.ranges
                      .slice(0, 3)
                      .map((range) => (range.from === range.to ? range.from : `${range.from} – ${range.to}`))
                      .join(', ')}
                    {item.ranges.length > 3 ? ` y ${item.ranges.length - 3} más` : ''}
                  </span>
                ),
              },
              {
                header: 'e-NCF',
                nowrap: true,
                numeric: true,
                cell: (item) => count(item.ranges.reduce((sum, range) => sum + range.count, 0)),
              },
              { header: 'Cancelados', numeric: true, cell: (item) => count(item.coveredCounts.cancelled) },
              { header: 'Motivo', cell: (item) => item.reason ?? '—' },
            ]}
          />
          {nextHref === null ? null : (
            <div className={styles.actions}>
              <LinkButton href={nextHref}>Página siguiente</LinkButton>
            </div>
          )}
        </Panel>
      )}
    </>
  );
}
