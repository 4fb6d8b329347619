import { TRPCError } from '@trpc/server';
import type { z } from 'zod';
import { hasCapability, ZAnnulmentSearchQuery } from '@ecf/services';
import { Banner, Button, EmptyState, LinkButton, PageHeader, Panel, Table, TextField } from '@ecf/ui';
import { AnnulmentForm } from '../../../../../components/annulment-form.tsx';
import styles from '../../../../../components/annulments.module.css';
import { ANNULMENT_STATUS_LABELS } from '../../../../../lib/annulment-schemas.ts';
import { ENVIRONMENT_LABELS, isEnvironment } from '../../../../../lib/environments.ts';
import { formatShortDateTime } from '../../../../../lib/format.ts';
import {
  ANNULMENT_SEARCH_KEYS,
  hrefOf as hrefWith,
  paramsOf,
  totalText,
} from '../../../../../lib/list-search.ts';
import { requirePageCapability } from '../../../../../server/page-access.ts';
import {
  ANNULMENT_STATES,
  ZListAnnulmentsInput,
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
 * (conflicts per document) and send; everyone with access sees the list (newest first, by state and
 * by e-NCF, issue 27's search; 50 per page with the total and both neighbouring pages) and each
 * annulment's page, where an uncertain one is reconciled. Not in CerteCF (annulments are eCF
 * operations, tested in TesteCF).
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
  const { q, cursor, before } = paramsOf(searchParams, ANNULMENT_SEARCH_KEYS);
  let page: z.infer<typeof ZListAnnulmentsOutput> = {
    items: [],
    nextCursor: null,
    previousCursor: null,
    total: { count: 0, capped: false },
  };
  let problem: string | null = null;
  let searchProblem: string | null = null;
  if (environment !== 'CerteCF') {
    const input = ZListAnnulmentsInput.safeParse({ environment, status, cursor, before, q });
    // What an e-NCF search may be, said on its field (the use-case refuses it too).
    const searchCheck = ZAnnulmentSearchQuery.safeParse({ q });
    if (!input.success || !searchCheck.success) {
      searchProblem = searchCheck.error?.issues[0]?.message ?? null;
      problem = searchProblem ?? 'Revise la búsqueda.';
    } else
      try {
        page = await (await serverApi()).annulments.list(input.data);
      } catch (error) {
        if (!(error instanceof TRPCError) || error.code !== 'BAD_REQUEST') throw error;
        problem = 'El enlace de esta página no corresponde a esta búsqueda: vuelva a buscar.';
      }
  }
  const hrefOf = (query: Record<string, string>) => hrefWith(`/${environment}/annulments`, query);
  const searched: Record<string, string> = q === undefined ? {} : { q };
  const nextHref =
    page.nextCursor === null
      ? null
      : hrefOf({ ...(status ? { status } : {}), ...searched, cursor: page.nextCursor });
  const previousHref =
    page.previousCursor === null
      ? null
      : hrefOf({ ...(status ? { status } : {}), ...searched, before: page.previousCursor });
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
          <form method="get" action={`/${environment}/annulments`} aria-label="Buscar anulaciones">
            {status ? <input type="hidden" name="status" value={status} /> : null}
            <TextField
              label="Buscar por e-NCF"
              name="q"
              defaultValue={q ?? ''}
              hint="Un e-NCF o su inicio (E31, E3100000001): las anulaciones cuyos rangos lo contienen."
              autoComplete="off"
              error={searchProblem}
            />
            <div className={styles.actions}>
              <Button type="submit">Buscar</Button>
              {q === undefined ? null : (
                <LinkButton href={hrefOf(status ? { status } : {})}>Quitar búsqueda</LinkButton>
              )}
            </div>
          </form>
          <nav aria-label="Filtrar por estado" className={styles.actions}>
            <a href={hrefOf(searched)} aria-current={status === undefined ? 'page' : undefined}>
              Todas
            </a>
            {ANNULMENT_STATES.map((state) => (
              <a
                key={state}
                href={hrefOf({ status: state, ...searched })}
                aria-current={status === state ? 'page' : undefined}
              >
                {ANNULMENT_STATUS_LABELS[state] ?? state}
              </a>
            ))}
          </nav>
          {problem ? <Banner tone="danger">{problem}</Banner> : null}
          {problem === null ? (
            <p>{totalText(page.total, { one: 'anulación', many: 'anulaciones' })}</p>
          ) : null}
          <Table
            caption="Anulaciones enviadas"
            captionHidden
            rows={page.items}
            rowKey={(item) => item.id}
            empty={
              problem !== null ? (
                'Sin resultados: revise la búsqueda.'
              ) : q !== undefined ? (
                <EmptyState
                  title="Ninguna anulación contiene ese e-NCF."
                  action={{ href: hrefOf({}), label: 'Ver todas las anulaciones' }}
                />
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
          {nextHref === null && previousHref === null ? null : (
            <nav className={styles.actions} aria-label="Páginas">
              {previousHref === null ? null : <LinkButton href={previousHref}>Anterior</LinkButton>}
              {nextHref === null ? null : <LinkButton href={nextHref}>Página siguiente</LinkButton>}
            </nav>
          )}
        </Panel>
      )}
    </>
  );
}
