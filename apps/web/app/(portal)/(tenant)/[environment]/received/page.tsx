import { ZReceivedSearchQuery } from '@ecf/services';
import {
  Banner,
  Button,
  EmptyState,
  LinkButton,
  PageHeader,
  Panel,
  Select,
  StatusBadge,
  Table,
  TextField,
} from '@ecf/ui';
import { ECF_TYPE_LABELS, ecfTypeLabel, formatAmount } from '../../../../../components/document-labels.ts';
import styles from '../../../../../components/document-pages.module.css';
import {
  RECEIVED_GROUP_LABELS,
  RECEIVED_GROUP_TONES,
  RECEIVED_QUERY_KEYS,
  receivedQueryOf,
} from '../../../../../components/received-labels.ts';
import { ExportPanel } from '../../../../../components/export-panel.tsx';
import type { TEnvironment } from '../../../../../lib/environments.ts';
import { formatShortDate, formatShortDateTime } from '../../../../../lib/format.ts';
import { hrefOf, paramsOf, RECEIVED_SEARCH_KEYS, totalText } from '../../../../../lib/list-search.ts';
import { listPageOf } from '../../../../../server/list-page.ts';
import { requirePageCapability } from '../../../../../server/page-access.ts';
import { serverApi } from '../../../../../server/trpc/server-caller.ts';

export const metadata = { title: 'Recibidos' };

type TSearchParams = Record<string, string | string[] | undefined>;

/**
 * "Recibidos": the e-CF suppliers sent to this account in one environment, newest reception
 * first, with the REST API's filters and cursor plus the portal's search (issue 27: e-NCF prefix,
 * the supplier's RNC or name, amount range) in the URL (a GET form), the total and both
 * neighbouring pages. Bad filters or a cursor of another query say so and list nothing.
 */
export default async function ReceivedPage(props: {
  params: Promise<{ environment: TEnvironment }>;
  searchParams: Promise<TSearchParams>;
}) {
  await requirePageCapability('inbound.read');
  const { environment } = await props.params;
  const searchParams = await props.searchParams;
  const query = receivedQueryOf(searchParams, RECEIVED_QUERY_KEYS);
  const search = paramsOf(searchParams, RECEIVED_SEARCH_KEYS);
  const api = await serverApi();
  const empty: Awaited<ReturnType<typeof api.inbound.listDocuments>> = {
    items: [],
    nextCursor: null,
    previousCursor: null,
    total: { count: 0, capped: false },
  };
  // The search's own message, on its field (what a search text may be, a reversed range).
  const searchCheck = ZReceivedSearchQuery.safeParse(search);
  const searchProblem = searchCheck.success
    ? null
    : {
        field: String(searchCheck.error.issues[0]?.path[0] ?? 'q'),
        message: searchCheck.error.issues[0]?.message ?? 'Revise la búsqueda.',
      };
  const { page, problem } =
    searchProblem === null
      ? await listPageOf(() => api.inbound.listDocuments({ environment, query, search }), empty)
      : { page: empty, problem: searchProblem.message };
  const { before: _before, ...searched } = search;
  const { cursor: _cursor, ...filters } = { ...query, ...searched };
  // "Por página" narrows nothing: only the other keys make the list a filtered one.
  const filtered = Object.keys(filters).some((key) => key !== 'limit');
  // The export's "current filter": the list's query and search without the page's position.
  const { cursor: _exportCursor, ...exportQuery } = query;
  const nextHref =
    page.nextCursor === null
      ? null
      : hrefOf(`/${environment}/received`, { ...filters, cursor: page.nextCursor });
  const previousHref =
    page.previousCursor === null
      ? null
      : hrefOf(`/${environment}/received`, { ...filters, before: page.previousCursor });
  const fieldError = (field: string) => (searchProblem?.field === field ? searchProblem.message : null);
  return (
    <>
      <PageHeader
        title="Recibidos"
        description={`Los e-CF que sus proveedores le enviaron en ${environment}, del más reciente al más antiguo.`}
      />
      <Panel title="Filtros">
        <form method="get" action={`/${environment}/received`} aria-label="Filtrar recibidos">
          <div className={styles.filters}>
            <TextField
              label="Buscar"
              name="q"
              defaultValue={search.q ?? ''}
              hint="e-NCF (o su inicio), o RNC, cédula o nombre del proveedor."
              autoComplete="off"
              error={fieldError('q')}
            />
            <TextField
              label="Monto mínimo"
              name="amountMin"
              inputMode="decimal"
              defaultValue={search.amountMin ?? ''}
              error={fieldError('amountMin')}
            />
            <TextField
              label="Monto máximo"
              name="amountMax"
              inputMode="decimal"
              defaultValue={search.amountMax ?? ''}
              error={fieldError('amountMax')}
            />
            <Select
              label="Situación"
              name="group"
              defaultValue={query.group ?? ''}
              options={[
                { value: '', label: 'Todas' },
                ...Object.entries(RECEIVED_GROUP_LABELS).map(([value, label]) => ({ value, label })),
              ]}
            />
            <Select
              label="Tipo"
              name="type"
              defaultValue={query.type ?? ''}
              options={[
                { value: '', label: 'Todos' },
                ...Object.entries(ECF_TYPE_LABELS).map(([value, label]) => ({
                  value,
                  label: `${value} ${label}`,
                })),
              ]}
            />
            <TextField label="Recibido desde" name="from" type="date" defaultValue={query.from ?? ''} />
            <TextField label="Recibido hasta" name="to" type="date" defaultValue={query.to ?? ''} />
            <Select
              label="Por página"
              name="limit"
              defaultValue={query.limit ?? '50'}
              options={['10', '25', '50', '100'].map((value) => ({ value, label: value }))}
            />
          </div>
          <div className={styles.actions}>
            <Button type="submit">Filtrar</Button>
            <LinkButton href={`/${environment}/received`}>Quitar filtros</LinkButton>
          </div>
        </form>
      </Panel>
      {problem ? <Banner tone="danger">{problem}</Banner> : null}
      <Panel title="Documentos recibidos">
        {problem === null ? (
          <p className={styles.total}>
            {totalText(page.total, { one: 'comprobante recibido', many: 'comprobantes recibidos' })}
          </p>
        ) : null}
        <Table
          caption={`Documentos recibidos en ${environment}`}
          captionHidden
          rows={page.items}
          rowKey={(item) => item.inboundDocumentId}
          empty={
            problem !== null ? (
              'Sin resultados: revise los filtros.'
            ) : filtered ? (
              <EmptyState
                title="Ningún comprobante recibido coincide con los filtros."
                action={{ href: `/${environment}/received`, label: 'Quitar filtros' }}
              >
                Cambie o quite los filtros para ver los demás.
              </EmptyState>
            ) : (
              <EmptyState
                title={`Aún no ha recibido comprobantes en ${environment}.`}
                action={{ href: '/CerteCF/certification', label: 'Ver sus URL de recepción' }}
              >
                Sus proveedores se los envían a su URL de recepción, que se registra en la DGII durante la
                certificación. Cada uno aparece aquí al llegar.
              </EmptyState>
            )
          }
          columns={[
            {
              header: 'e-NCF',
              nowrap: true,
              rowHeader: true,
              cell: (item) => (
                <a className={styles.mono} href={`/${environment}/received/${item.inboundDocumentId}`}>
                  {item.encf}
                </a>
              ),
            },
            { header: 'Tipo', nowrap: true, cell: (item) => ecfTypeLabel(item.type) },
            { header: 'Proveedor', cell: (item) => `${item.issuerName ?? ''} (${item.issuerRnc})`.trim() },
            {
              header: 'Emisión',
              nowrap: true,
              cell: (item) => (item.issueDate ? formatShortDate(`${item.issueDate}T12:00:00-04:00`) : '—'),
            },
            {
              header: 'Total',
              numeric: true,
              cell: (item) => (item.totalAmount === null ? '—' : formatAmount(item.totalAmount)),
            },
            {
              header: 'Situación',
              cell: (item) => (
                <StatusBadge tone={RECEIVED_GROUP_TONES[item.group] ?? 'neutral'}>
                  {RECEIVED_GROUP_LABELS[item.group] ?? item.group}
                </StatusBadge>
              ),
            },
            {
              header: 'Aprobar antes de',
              nowrap: true,
              cell: (item) =>
                item.commercialApprovalDeadline
                  ? formatShortDate(`${item.commercialApprovalDeadline}T12:00:00-04:00`)
                  : '—',
            },
            { header: 'Recibido', nowrap: true, cell: (item) => formatShortDateTime(item.receivedAt) },
          ]}
        />
        {nextHref === null && previousHref === null ? null : (
          <nav className={styles.actions} aria-label="Páginas">
            {previousHref === null ? null : <LinkButton href={previousHref}>Anterior</LinkButton>}
            {nextHref === null ? null : <LinkButton href={nextHref}>Página siguiente</LinkButton>}
          </nav>
        )}
      </Panel>
      <Panel title="Exportar">
        <ExportPanel
          kind="received"
          environment={environment}
          currentFilter={filtered ? { query: exportQuery, search: searched } : null}
        />
      </Panel>
    </>
  );
}
