import { notFound } from 'next/navigation';
import { Banner, LinkButton, PageHeader, Panel, StatusBadge, TechnicalDetails } from '@ecf/ui';
import { CommercialApprovalPanel } from '../../../../../../components/commercial-approval-panel.tsx';
import { ECF_TYPE_LABELS, formatAmount } from '../../../../../../components/document-labels.ts';
import styles from '../../../../../../components/document-pages.module.css';
import {
  NOT_RECEIVED_LABELS,
  RECEIVED_GROUP_LABELS,
  RECEIVED_GROUP_TONES,
  VALIDITY_LABELS,
} from '../../../../../../components/received-labels.ts';
import { endSentence } from '../../../../../../lib/catalogue.ts';
import type { TEnvironment } from '../../../../../../lib/environments.ts';
import { formatDate, formatDateTime } from '../../../../../../lib/format.ts';
import { requirePageCapability } from '../../../../../../server/page-access.ts';
import { orNotFound, serverApi } from '../../../../../../server/trpc/server-caller.ts';

export const metadata = { title: 'Documento recibido' };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function textOf(value: unknown): string {
  return typeof value === 'string' || typeof value === 'number' ? String(value) : '—';
}

/**
 * One received e-CF: header, supplier, amounts, signer, validity at the tax authority, the
 * commercial approval's deadline or the decision sent, and the XML as the supplier sent it.
 * Another tenant's id (or an ACECF's) is the not-found page.
 */
export default async function ReceivedDocumentPage(props: {
  params: Promise<{ environment: TEnvironment; inboundDocumentId: string }>;
}) {
  await requirePageCapability('inbound.read');
  const { environment, inboundDocumentId } = await props.params;
  if (!UUID.test(inboundDocumentId)) notFound();
  const api = await serverApi();
  const item = await orNotFound(api.inbound.getDocument({ environment, inboundDocumentId }));
  const signer = item.signer ?? {};
  const validity = item.taxauthValidity;
  const approval = item.commercialApproval;
  return (
    <>
      <PageHeader
        title={`Recibido ${item.encf}`}
        description={`${item.type} ${ECF_TYPE_LABELS[item.type] ?? ''} de ${item.issuerName ?? item.issuerRnc}, en ${environment}.`}
      />
      <Panel title="Resumen">
        <dl className={styles.facts}>
          <dt>e-NCF</dt>
          <dd className={styles.mono}>{item.encf}</dd>
          <dt>Tipo</dt>
          <dd>{`${item.type} ${ECF_TYPE_LABELS[item.type] ?? ''}`.trim()}</dd>
          <dt>Situación</dt>
          <dd>
            <StatusBadge tone={RECEIVED_GROUP_TONES[item.group] ?? 'neutral'}>
              {RECEIVED_GROUP_LABELS[item.group] ?? item.group}
            </StatusBadge>
          </dd>
          <dt>Proveedor</dt>
          <dd>
            {item.issuerName ?? 'Sin nombre'} <span className={styles.mono}>({item.issuerRnc})</span>
          </dd>
          <dt>Comprador (RNC)</dt>
          <dd>{item.buyerRnc ?? '—'}</dd>
          <dt>Fecha de emisión</dt>
          <dd>{item.issueDate ? formatDate(`${item.issueDate}T12:00:00-04:00`) : '—'}</dd>
          <dt>Total</dt>
          <dd>{item.totalAmount === null ? '—' : formatAmount(item.totalAmount)}</dd>
          <dt>Recibido</dt>
          <dd>{formatDateTime(item.receivedAt)}</dd>
          <dt>Firmante</dt>
          <dd>
            {textOf(signer['subject'] ?? signer['holderId'])}
            {signer['matchesIssuer'] === false ? ' (no es el emisor: se registra, no se rechaza)' : ''}
          </dd>
        </dl>
        {item.notReceived ? (
          <Banner tone="warning" title="No recibido">
            <TechnicalDetails technical={item.notReceived.reason}>
              {endSentence(NOT_RECEIVED_LABELS[item.notReceived.code] ?? 'Motivo no reconocido')}
            </TechnicalDetails>
          </Banner>
        ) : null}
      </Panel>
      <Panel title="Validez en la DGII">
        {validity === null ? (
          <p>Aún no consultada: se consulta automáticamente después de recibirlo.</p>
        ) : (
          <dl className={styles.facts}>
            <dt>Resultado</dt>
            <dd>{VALIDITY_LABELS[validity.status] ?? validity.status}</dd>
            <dt>Estado DGII</dt>
            <dd>{validity.estado ?? '—'}</dd>
            <dt>Consultada</dt>
            <dd>{formatDateTime(validity.checkedAt)}</dd>
          </dl>
        )}
      </Panel>
      {item.notReceived ? (
        <Panel title="Aprobación comercial">
          <p>No aplica: el documento no fue recibido.</p>
        </Panel>
      ) : (
        <>
          {approval === null && item.commercialApprovalDeadline ? (
            <Banner tone="info" title="Sin responder">
              Plazo para aceptar o rechazar:{' '}
              <strong>{formatDate(`${item.commercialApprovalDeadline}T12:00:00-04:00`)}</strong>.
            </Banner>
          ) : null}
          <CommercialApprovalPanel environment={environment} inboundDocumentId={inboundDocumentId} />
        </>
      )}
      <Panel title="Descargas">
        {item.links.xml ? (
          <div className={styles.actions}>
            <LinkButton href={`/api/received/${item.inboundDocumentId}/xml?environment=${environment}`}>
              XML recibido
            </LinkButton>
          </div>
        ) : (
          <p>No se guardó copia: fue rechazado antes de verificar su firma.</p>
        )}
      </Panel>
    </>
  );
}
