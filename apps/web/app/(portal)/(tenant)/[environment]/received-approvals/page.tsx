import {
  Banner,
  Button,
  EmptyState,
  LinkButton,
  PageHeader,
  Panel,
  StatusBadge,
  Table,
  TextField,
} from '@ecf/ui';
import styles from '../../../../../components/document-pages.module.css';
import {
  CORRESPONDENCE_LABELS,
  DECISION_LABELS,
  RECEIVED_APPROVAL_QUERY_KEYS,
  RECEIVED_APPROVAL_STATUS_LABELS,
  receivedQueryOf,
} from '../../../../../components/received-labels.ts';
import type { TEnvironment } from '../../../../../lib/environments.ts';
import { formatShortDateTime } from '../../../../../lib/format.ts';
import { listPageOf } from '../../../../../server/list-page.ts';
import { requirePageCapability } from '../../../../../server/page-access.ts';
import { serverApi } from '../../../../../server/trpc/server-caller.ts';

export const metadata = { title: 'Aprobaciones recibidas' };

type TSearchParams = Record<string, string | string[] | undefined>;

function correspondenceOf(value: Record<string, unknown> | null): string {
  const result = value?.['result'];
  return typeof result === 'string' ? (CORRESPONDENCE_LABELS[result] ?? result) : '—';
}

/**
 * "Aprobaciones recibidas": the commercial approvals (ACECF) customers sent on this account's e-CF,
 * newest first, with the REST API's filters and cursor in the URL.
 */
export default async function ReceivedApprovalsPage(props: {
  params: Promise<{ environment: TEnvironment }>;
  searchParams: Promise<TSearchParams>;
}) {
  await requirePageCapability('inbound.read');
  const { environment } = await props.params;
  const query = receivedQueryOf(await props.searchParams, RECEIVED_APPROVAL_QUERY_KEYS);
  const api = await serverApi();
  const { page, problem } = await listPageOf(() => api.inbound.listApprovals({ environment, query }), {
    items: [],
    nextCursor: null,
  });
  const { cursor: _cursor, ...filters } = query;
  // "Por página" narrows nothing: only the other keys make the list a filtered one.
  const filtered = Object.keys(filters).some((key) => key !== 'limit');
  const nextHref =
    page.nextCursor === null
      ? null
      : `/${environment}/received-approvals?${new URLSearchParams({ ...filters, cursor: page.nextCursor }).toString()}`;
  return (
    <>
      <PageHeader
        title="Aprobaciones recibidas"
        description={`Las aprobaciones comerciales que sus clientes enviaron sobre sus e-CF en ${environment}.`}
      />
      <Panel title="Filtros">
        <form method="get" action={`/${environment}/received-approvals`} aria-label="Filtrar aprobaciones">
          <div className={styles.filters}>
            <TextField label="e-NCF" name="encf" defaultValue={query.encf ?? ''} />
            <TextField label="RNC del cliente" name="buyerRnc" defaultValue={query.buyerRnc ?? ''} />
            <TextField label="Recibida desde" name="from" type="date" defaultValue={query.from ?? ''} />
            <TextField label="Recibida hasta" name="to" type="date" defaultValue={query.to ?? ''} />
          </div>
          <div className={styles.actions}>
            <Button type="submit">Filtrar</Button>
            <LinkButton href={`/${environment}/received-approvals`}>Quitar filtros</LinkButton>
          </div>
        </form>
      </Panel>
      {problem ? <Banner tone="danger">{problem}</Banner> : null}
      <Panel title="Aprobaciones">
        <Table
          caption={`Aprobaciones comerciales recibidas en ${environment}`}
          captionHidden
          rows={page.items}
          rowKey={(item) => item.inboundDocumentId}
          empty={
            problem !== null ? (
              'Sin resultados: revise los filtros.'
            ) : filtered ? (
              <EmptyState
                title="Ninguna aprobación recibida coincide con los filtros."
                action={{ href: `/${environment}/received-approvals`, label: 'Quitar filtros' }}
              >
                Cambie o quite los filtros para ver las demás.
              </EmptyState>
            ) : (
              <EmptyState
                title={`Aún no ha recibido aprobaciones comerciales en ${environment}.`}
                action={{ href: `/${environment}/documents`, label: 'Ver sus comprobantes emitidos' }}
              >
                Sus clientes las envían sobre los e-CF que usted les emite; cada una aparece aquí al llegar.
              </EmptyState>
            )
          }
          columns={[
            {
              header: 'e-NCF',
              nowrap: true,
              rowHeader: true,
              cell: (item) => (
                <a
                  className={styles.mono}
                  href={`/${environment}/received-approvals/${item.inboundDocumentId}`}
                >
                  {item.encf}
                </a>
              ),
            },
            { header: 'Cliente (RNC)', cell: (item) => item.buyerRnc ?? '—' },
            {
              header: 'Decisión',
              cell: (item) =>
                item.decision === null ? (
                  <StatusBadge>{RECEIVED_APPROVAL_STATUS_LABELS[item.status] ?? item.status}</StatusBadge>
                ) : (
                  <StatusBadge tone={item.decision === 'accepted' ? 'success' : 'danger'}>
                    {DECISION_LABELS[item.decision]}
                  </StatusBadge>
                ),
            },
            { header: 'Correspondencia', cell: (item) => correspondenceOf(item.correspondence) },
            { header: 'Recibida', nowrap: true, cell: (item) => formatShortDateTime(item.receivedAt) },
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
