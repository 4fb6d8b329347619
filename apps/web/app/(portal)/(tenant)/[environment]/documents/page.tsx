import { hasCapability, ZIssuedSearchQuery, type TPrincipal } from '@ecf/services';
import { Banner, EmptyState, LinkButton, PageHeader, Panel, Table } from '@ecf/ui';
import {
  DocumentFilters,
  DOCUMENT_QUERY_KEYS,
  DOCUMENT_SEARCH_KEYS,
} from '../../../../../components/document-filters.tsx';
import { ecfTypeLabel, formatAmount } from '../../../../../components/document-labels.ts';
import styles from '../../../../../components/document-pages.module.css';
import { LiveDocumentList, LiveDocumentStatusCell } from '../../../../../components/live-documents.tsx';
import { ExportPanel } from '../../../../../components/export-panel.tsx';
import type { TEnvironment } from '../../../../../lib/environments.ts';
import { formatShortDate, formatShortDateTime } from '../../../../../lib/format.ts';
import { livePollMs } from '../../../../../server/live-status.ts';
import { listPageOf } from '../../../../../server/list-page.ts';
import { requirePageCapability } from '../../../../../server/page-access.ts';
import { activeProductionState } from '../../../../../server/production-state.ts';
import { serverApi } from '../../../../../server/trpc/server-caller.ts';

export const metadata = { title: 'Documentos' };

type TSearchParams = Record<string, string | string[] | undefined>;

/** The URL's values of `keys` (the REST API's query, or the portal's search), blank values (an empty filter) left out. */
function queryOf(
  searchParams: TSearchParams,
  keys: readonly string[] = DOCUMENT_QUERY_KEYS,
): Record<string, string> {
  const query: Record<string, string> = {};
  for (const key of keys) {
    const value = searchParams[key];
    const text = Array.isArray(value) ? value[0] : value;
    if (text !== undefined && text.trim() !== '') query[key] = text.trim();
  }
  return query;
}

/**
 * What an empty list says (issue 27): with filters, how to clear them; without, how this
 * environment gets its first document (TesteCF: try it; CerteCF: the certification runs; eCF: an
 * eCF key once production is active, the certification before). One primary action when the role
 * may take it.
 */
async function emptyStateOf(input: { environment: TEnvironment; filtered: boolean; principal: TPrincipal }) {
  const { environment, principal } = input;
  if (input.filtered)
    return (
      <EmptyState
        title="Ningún comprobante coincide con los filtros."
        action={{ href: `/${environment}/documents`, label: 'Quitar filtros' }}
      >
        Cambie o quite los filtros para ver los demás.
      </EmptyState>
    );
  if (environment === 'TesteCF')
    return hasCapability(principal, 'emission.test') ? (
      <EmptyState
        title="Aún no ha emitido comprobantes en TesteCF."
        action={{ href: '/TesteCF/try-it', label: 'Probar una emisión' }}
      >
        Pruebe una emisión desde el portal, o envíe uno con su clave API de TesteCF.
      </EmptyState>
    ) : (
      <EmptyState title="Aún no ha emitido comprobantes en TesteCF.">
        Un propietario o un desarrollador de la cuenta puede probar una emisión.
      </EmptyState>
    );
  if (environment === 'CerteCF')
    return (
      <EmptyState
        title="Aún no ha emitido comprobantes en CerteCF."
        action={{ href: '/CerteCF/certification', label: 'Ir a la certificación' }}
      >
        Los comprobantes de CerteCF salen de las corridas de la certificación.
      </EmptyState>
    );
  if ((await activeProductionState()) !== 'active')
    return (
      <EmptyState
        title="Aún no ha emitido comprobantes en eCF."
        action={{ href: '/CerteCF/certification', label: 'Ir a la certificación' }}
      >
        La producción se abre después de la certificación.
      </EmptyState>
    );
  return hasCapability(principal, 'keys.read') ? (
    <EmptyState
      title="Aún no ha emitido comprobantes en eCF."
      action={{ href: '/eCF/api-keys', label: 'Ver las claves de eCF' }}
    >
      Su sistema emite en producción con una clave API de eCF.
    </EmptyState>
  ) : (
    <EmptyState title="Aún no ha emitido comprobantes en eCF.">
      Los comprobantes aparecen aquí cuando su sistema emite con una clave API de eCF.
    </EmptyState>
  );
}

/** "N comprobantes", or "Más de N" past the count's cap (counting further would cost a full scan). */
function totalText(total: { count: number; capped: boolean }): string {
  const count = new Intl.NumberFormat('es-DO').format(total.count);
  if (total.capped) return `Más de ${count} comprobantes`;
  return total.count === 1 ? '1 comprobante' : `${count} comprobantes`;
}

/**
 * The issued list of one environment: the REST API's filters and cursor plus the portal's search
 * (issue 27), kept in the URL (a GET form), newest submission first, with the total and both
 * neighbouring pages. Bad filters or a cursor of another query say so and list nothing.
 */
export default async function DocumentsPage(props: {
  params: Promise<{ environment: TEnvironment }>;
  searchParams: Promise<TSearchParams>;
}) {
  const { principal } = await requirePageCapability('documents.read');
  const { environment } = await props.params;
  const searchParams = await props.searchParams;
  const query = queryOf(searchParams);
  const search = queryOf(searchParams, DOCUMENT_SEARCH_KEYS);
  const api = await serverApi();
  const noPage: Awaited<ReturnType<typeof api.documents.list>> = {
    items: [],
    nextCursor: null,
    previousCursor: null,
    total: { count: 0, capped: false },
  };
  // The search's own message (what a search text may be, a reversed range) rather than a generic one.
  const searchCheck = ZIssuedSearchQuery.safeParse(search);
  const { page, problem } = searchCheck.success
    ? await listPageOf(() => api.documents.list({ environment, query, search }), noPage)
    : { page: noPage, problem: searchCheck.error.issues[0]?.message ?? 'Revise la búsqueda.' };
  const { before: _before, ...searched } = search;
  // The export's "current filter": the list's query and search without the page's position.
  const { cursor: _exportCursor, ...exportQuery } = query;
  const exportSearch = searched;
  const { cursor: _cursor, ...filters } = { ...query, ...searched };
  // "Por página" narrows nothing: only the other keys make the list a filtered one.
  const filtered = Object.keys(filters).some((key) => key !== 'limit');
  const empty =
    problem === null && page.items.length === 0
      ? await emptyStateOf({ environment, filtered, principal })
      : undefined;
  const nextHref =
    page.nextCursor === null
      ? null
      : `/${environment}/documents?${new URLSearchParams({ ...filters, cursor: page.nextCursor }).toString()}`;
  const previousHref =
    page.previousCursor === null
      ? null
      : `/${environment}/documents?${new URLSearchParams({ ...filters, before: page.previousCursor }).toString()}`;
  return (
    <>
      <PageHeader
        title="Documentos emitidos"
        description={`Los e-CF emitidos en ${environment}, del más reciente al más antiguo.`}
      />
      <Panel title="Filtros">
        <DocumentFilters environment={environment} values={{ ...query, ...search }} />
      </Panel>
      {problem ? <Banner tone="danger">{problem}</Banner> : null}
      <Panel title="Documentos">
        {problem === null ? <p className={styles.total}>{totalText(page.total)}</p> : null}
        <LiveDocumentList
          key={page.items.map((item) => item.documentId).join(',')}
          environment={environment}
          documents={page.items.map(({ documentId, encf, status }) => ({ documentId, encf, status }))}
          pollMs={livePollMs()}
        >
          <Table
            caption={`Documentos emitidos en ${environment}`}
            captionHidden
            rows={page.items}
            rowKey={(item) => item.documentId}
            empty={empty ?? 'Sin resultados: revise los filtros.'}
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
              {
                header: 'Estado',
                cell: (item) => <LiveDocumentStatusCell documentId={item.documentId} status={item.status} />,
              },
              { header: 'Recibido', nowrap: true, cell: (item) => formatShortDateTime(item.submittedAt) },
            ]}
          />
        </LiveDocumentList>
        {nextHref === null && previousHref === null ? null : (
          <nav className={styles.actions} aria-label="Páginas">
            {previousHref === null ? null : <LinkButton href={previousHref}>Anterior</LinkButton>}
            {nextHref === null ? null : <LinkButton href={nextHref}>Página siguiente</LinkButton>}
          </nav>
        )}
      </Panel>
      <Panel title="Exportar">
        <ExportPanel
          kind="issued"
          environment={environment}
          currentFilter={filtered ? { query: exportQuery, search: exportSearch } : null}
        />
      </Panel>
    </>
  );
}
