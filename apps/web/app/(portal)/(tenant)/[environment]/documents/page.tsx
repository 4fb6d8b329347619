import { TRPCError } from '@trpc/server';
import { AppError } from '@ecf/services';
import { Banner, LinkButton, PageHeader, Panel, Table } from '@ecf/ui';
import { DocumentFilters, DOCUMENT_QUERY_KEYS } from '../../../../../components/document-filters.tsx';
import { ecfTypeLabel, formatAmount } from '../../../../../components/document-labels.ts';
import styles from '../../../../../components/document-pages.module.css';
import { DocumentStatusBadge } from '../../../../../components/document-status-badge.tsx';
import type { TEnvironment } from '../../../../../lib/environments.ts';
import { formatShortDate, formatShortDateTime } from '../../../../../lib/format.ts';
import { requirePageCapability } from '../../../../../server/page-access.ts';
import { serverApi } from '../../../../../server/trpc/server-caller.ts';

export const metadata = { title: 'Documentos' };

type TSearchParams = Record<string, string | string[] | undefined>;

/** The REST API's query from the URL: its known keys only, blank values (an empty filter) left out. */
function queryOf(searchParams: TSearchParams): Record<string, string> {
  const query: Record<string, string> = {};
  for (const key of DOCUMENT_QUERY_KEYS) {
    const value = searchParams[key];
    const text = Array.isArray(value) ? value[0] : value;
    if (text !== undefined && text.trim() !== '') query[key] = text.trim();
  }
  return query;
}

/**
 * The issued list of one environment: the REST API's filters and cursor, kept in the URL (a GET
 * form), newest submission first. Bad filters or a cursor of another query say so and list nothing.
 */
export default async function DocumentsPage(props: {
  params: Promise<{ environment: TEnvironment }>;
  searchParams: Promise<TSearchParams>;
}) {
  await requirePageCapability('documents.read');
  const { environment } = await props.params;
  const query = queryOf(await props.searchParams);
  const api = await serverApi();
  let page: Awaited<ReturnType<typeof api.documents.list>> = { items: [], nextCursor: null };
  let problem: string | null = null;
  try {
    page = await api.documents.list({ environment, query });
  } catch (error) {
    if (!(error instanceof TRPCError) || error.code !== 'BAD_REQUEST') throw error;
    problem =
      error.cause instanceof AppError
        ? 'El enlace de la página siguiente no corresponde a estos filtros: vuelva a filtrar.'
        : 'Revise los filtros: alguno no es válido.';
  }
  const { cursor: _cursor, ...filters } = query;
  const nextHref =
    page.nextCursor === null
      ? null
      : `/${environment}/documents?${new URLSearchParams({ ...filters, cursor: page.nextCursor }).toString()}`;
  return (
    <>
      <PageHeader
        title="Documentos emitidos"
        description={`Los e-CF emitidos en ${environment}, del más reciente al más antiguo.`}
      />
      <Panel title="Filtros">
        <DocumentFilters environment={environment} values={query} />
      </Panel>
      {problem ? <Banner tone="danger">{problem}</Banner> : null}
      <Panel title="Documentos">
        <Table
          caption={`Documentos emitidos en ${environment}`}
          captionHidden
          rows={page.items}
          rowKey={(item) => item.documentId}
          empty="No hay documentos con estos filtros."
          columns={[
            {
              header: 'e-NCF',
              nowrap: true,
              rowHeader: true,
              cell: (item) => (
                <a className={styles.mono} href={`/${environment}/documents/${item.documentId}`}>
                  {item.encf}
                </a>
              ),
            },
            { header: 'Tipo', nowrap: true, cell: (item) => ecfTypeLabel(item.type) },
            { header: 'RNC comprador', nowrap: true, cell: (item) => item.buyerRnc ?? '—' },
            {
              header: 'Emisión',
              nowrap: true,
              cell: (item) => formatShortDate(`${item.issueDate}T12:00:00-04:00`),
            },
            { header: 'Total', numeric: true, cell: (item) => formatAmount(item.totalAmount) },
            { header: 'Estado', cell: (item) => <DocumentStatusBadge status={item.status} /> },
            { header: 'Recibido', nowrap: true, cell: (item) => formatShortDateTime(item.submittedAt) },
          ]}
        />
        {nextHref === null ? null : (
          <div className={styles.actions}>
            <LinkButton href={nextHref}>Página siguiente</LinkButton>
          </div>
        )}
      </Panel>
    </>
  );
}
