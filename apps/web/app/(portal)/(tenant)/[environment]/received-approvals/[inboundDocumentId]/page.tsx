import { notFound } from 'next/navigation';
import { Banner, LinkButton, PageHeader, Panel, StatusBadge, TechnicalDetails } from '@ecf/ui';
import styles from '../../../../../../components/document-pages.module.css';
import {
  CORRESPONDENCE_LABELS,
  DECISION_LABELS,
  RECEIVED_APPROVAL_STATUS_LABELS,
} from '../../../../../../components/received-labels.ts';
import type { TEnvironment } from '../../../../../../lib/environments.ts';
import { formatDateTime } from '../../../../../../lib/format.ts';
import { requirePageCapability } from '../../../../../../server/page-access.ts';
import { orNotFound, serverApi } from '../../../../../../server/trpc/server-caller.ts';

export const metadata = { title: 'Aprobación recibida' };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type TMismatch = { field?: unknown; received?: unknown; issued?: unknown };

/** One commercial approval a customer sent: the decision, how it matches the issued e-CF, the ACECF. */
export default async function ReceivedApprovalPage(props: {
  params: Promise<{ environment: TEnvironment; inboundDocumentId: string }>;
}) {
  await requirePageCapability('inbound.read');
  const { environment, inboundDocumentId } = await props.params;
  if (!UUID.test(inboundDocumentId)) notFound();
  const api = await serverApi();
  const item = await orNotFound(api.inbound.getApproval({ environment, inboundDocumentId }));
  const result = item.correspondence?.['result'];
  const mismatches = Array.isArray(item.correspondence?.['mismatches'])
    ? (item.correspondence['mismatches'] as TMismatch[])
    : [];
  return (
    <>
      <PageHeader
        title={`Aprobación de ${item.encf}`}
        description={`Aprobación comercial del cliente ${item.buyerRnc ?? ''} en ${environment}.`}
      />
      <Panel title="Resumen">
        <dl className={styles.facts}>
          <dt>e-NCF</dt>
          <dd className={styles.mono}>{item.encf}</dd>
          <dt>Cliente (RNC)</dt>
          <dd>{item.buyerRnc ?? '—'}</dd>
          <dt>Estado</dt>
          <dd>{RECEIVED_APPROVAL_STATUS_LABELS[item.status] ?? item.status}</dd>
          <dt>Decisión</dt>
          <dd>
            {item.decision === null ? (
              '—'
            ) : (
              <StatusBadge tone={item.decision === 'accepted' ? 'success' : 'danger'}>
                {DECISION_LABELS[item.decision]}
              </StatusBadge>
            )}
          </dd>
          {item.decisionReason ? (
            <>
              <dt>Motivo</dt>
              <dd>{item.decisionReason}</dd>
            </>
          ) : null}
          <dt>Fecha de aprobación</dt>
          <dd>{item.approvedAt ?? '—'}</dd>
          <dt>Recibida</dt>
          <dd>{formatDateTime(item.receivedAt)}</dd>
          <dt>Documento emitido</dt>
          <dd>
            {item.documentId ? <a href={`/${environment}/documents/${item.documentId}`}>Ver el e-CF</a> : '—'}
          </dd>
          <dt>Correspondencia</dt>
          <dd>{typeof result === 'string' ? (CORRESPONDENCE_LABELS[result] ?? result) : '—'}</dd>
        </dl>
        {item.notReceived ? (
          <Banner tone="warning">
            <TechnicalDetails technical={item.notReceived.reason}>
              La aprobación comercial no se aceptó al recibirla: no pasó las verificaciones de formato o
              firma.
            </TechnicalDetails>
          </Banner>
        ) : null}
        {mismatches.length > 0 ? (
          <ul className={styles.issues}>
            {mismatches.map((mismatch, index) => (
              <li key={index}>
                {String(mismatch.field)}: recibido {String(mismatch.received)}, emitido{' '}
                {String(mismatch.issued)}
              </li>
            ))}
          </ul>
        ) : null}
      </Panel>
      <Panel title="Descargas">
        {item.links.xml ? (
          <div className={styles.actions}>
            <LinkButton
              href={`/api/received-approvals/${item.inboundDocumentId}/xml?environment=${environment}`}
            >
              ACECF recibida (XML)
            </LinkButton>
          </div>
        ) : (
          <p>No se guardó copia de esta aprobación.</p>
        )}
      </Panel>
    </>
  );
}
