import { notFound } from 'next/navigation';
import { hasCapability } from '@ecf/services';
import { Banner, LinkButton, PageHeader, Panel, StatusBadge, Table } from '@ecf/ui';
import {
  DELIVERY_STATUS_LABELS,
  ECF_TYPE_LABELS,
  EMAIL_OUTCOME_LABELS,
  formatAmount,
  PRINTING_STATUS_LABELS,
} from '../../../../../../components/document-labels.ts';
import styles from '../../../../../../components/document-pages.module.css';
import { DocumentTimeline } from '../../../../../../components/document-timeline.tsx';
import { ProblemText } from '../../../../../../components/problem-text.tsx';
import { LiveDocumentState } from '../../../../../../components/live-documents.tsx';
import {
  DOCUMENT_PROBLEM_TEXTS,
  ERROR_CODE_TEXTS,
  RECEIVER_PROBLEM_TEXTS,
} from '../../../../../../lib/catalogue.ts';
import type { TEnvironment } from '../../../../../../lib/environments.ts';
import { formatDate, formatDateTime, formatShortDateTime } from '../../../../../../lib/format.ts';
import { documentDownloadHref } from '../../../../../../server/document-download-params.ts';
import { livePollMs } from '../../../../../../server/live-status.ts';
import { requirePageCapability } from '../../../../../../server/page-access.ts';
import { orNotFound, serverApi } from '../../../../../../server/trpc/server-caller.ts';

export const metadata = { title: 'Documento' };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * One issued document: header, status timeline (the event log, with the tax authority's messages),
 * receiver delivery and its ARECF, buyer e-mail attempts, printing status and the downloads (the
 * API's use-cases behind /api/documents/...). Another tenant's id is the not-found page.
 */
export default async function DocumentPage(props: {
  params: Promise<{ environment: TEnvironment; documentId: string }>;
}) {
  const { principal } = await requirePageCapability('documents.read');
  const { environment, documentId } = await props.params;
  const api = await serverApi();
  // A malformed id is not found either (the procedure would call it a bad input).
  if (!UUID.test(documentId)) notFound();
  const details = await orNotFound(api.documents.get({ environment, documentId }));
  const { document, receiverDelivery, buyerEmailAttempts } = details;
  const canDownload = hasCapability(principal, 'documents.download');
  const canDownloadEvidence = hasCapability(principal, 'evidence.download');
  return (
    <>
      <PageHeader
        title={`Documento ${document.encf}`}
        description={`${document.type} ${ECF_TYPE_LABELS[document.type] ?? ''} en ${environment}.`}
      />
      <Panel title="Resumen">
        <dl className={styles.facts}>
          <dt>e-NCF</dt>
          <dd className={styles.mono}>{document.encf}</dd>
          <dt>Tipo</dt>
          <dd>{`${document.type} ${ECF_TYPE_LABELS[document.type] ?? ''}`.trim()}</dd>
          <dt>Estado</dt>
          <dd>
            <LiveDocumentState
              environment={environment}
              documentId={document.documentId}
              status={document.status}
              updatedAt={document.updatedAt}
              pollMs={livePollMs()}
            />
          </dd>
          <dt>Comprador (RNC)</dt>
          <dd>{document.buyerRnc ?? 'Sin comprador identificado'}</dd>
          <dt>Total</dt>
          <dd>{formatAmount(document.totalAmount)}</dd>
          <dt>Fecha de emisión</dt>
          <dd>{formatDate(`${document.issueDate}T12:00:00-04:00`)}</dd>
          <dt>Recibido</dt>
          <dd>{formatDateTime(document.submittedAt)}</dd>
          <dt>TrackId</dt>
          <dd className={styles.mono}>{document.trackId ?? '—'}</dd>
          <dt>Código de seguridad</dt>
          <dd className={styles.mono}>{document.securityCode ?? '—'}</dd>
          <dt>Representación impresa</dt>
          <dd>{PRINTING_STATUS_LABELS[document.printingStatus] ?? document.printingStatus}</dd>
        </dl>
        {document.lastError ? (
          <Banner tone="warning" title="Último error">
            <ProblemText
              code={document.lastError.code}
              message={document.lastError.message}
              sections={[DOCUMENT_PROBLEM_TEXTS, ERROR_CODE_TEXTS]}
              fallback="Ocurrió un problema con este documento."
            />
          </Banner>
        ) : null}
        {document.taxauthMessages.length > 0 ? (
          <>
            <h3>Mensajes de la DGII</h3>
            <ul className={styles.issues}>
              {document.taxauthMessages.map((message, index) => (
                <li key={index}>
                  {message.code ? `${message.code}: ` : ''}
                  {message.message}
                </li>
              ))}
            </ul>
          </>
        ) : null}
        <div className={styles.actions}>
          {canDownload && document.isSigned ? (
            <LinkButton href={documentDownloadHref(document.documentId, environment, 'xml')} download>
              Descargar XML firmado
            </LinkButton>
          ) : null}
          {canDownload && document.isPrintable ? (
            <LinkButton href={documentDownloadHref(document.documentId, environment, 'pdf')} download>
              Descargar PDF
            </LinkButton>
          ) : null}
          {canDownloadEvidence ? (
            <LinkButton href={documentDownloadHref(document.documentId, environment, 'evidence')} download>
              Paquete de evidencia
            </LinkButton>
          ) : null}
          <LinkButton href={`/${environment}/documents`} variant="ghost">
            Volver a la lista
          </LinkButton>
        </div>
      </Panel>
      <Panel title="Historial de estados">
        <DocumentTimeline entries={details.timeline} />
      </Panel>
      <Panel title="Entrega al receptor">
        {receiverDelivery === null ? (
          <p className={styles.muted}>Sin entrega al receptor (todavía no aceptado, o no aplica).</p>
        ) : (
          <dl className={styles.facts}>
            <dt>Estado</dt>
            <dd>
              <StatusBadge tone={receiverDelivery.status === 'sent' ? 'success' : 'neutral'}>
                {DELIVERY_STATUS_LABELS[receiverDelivery.status] ?? receiverDelivery.status}
              </StatusBadge>
            </dd>
            <dt>Intentos</dt>
            <dd>{receiverDelivery.attempts}</dd>
            <dt>Dirección de recepción</dt>
            <dd className={styles.mono}>{receiverDelivery.targetUrl ?? '—'}</dd>
            <dt>ARECF</dt>
            <dd>
              {receiverDelivery.arecf === null ? (
                'No recibido'
              ) : (
                <>
                  Recibido el {formatDateTime(receiverDelivery.arecf.receivedAt)} (SHA-256{' '}
                  <span className={styles.mono}>{receiverDelivery.arecf.sha256}</span>)
                </>
              )}
            </dd>
            {receiverDelivery.lastError ? (
              <>
                <dt>Último error</dt>
                <dd>
                  <ProblemText
                    text={receiverDelivery.lastError}
                    sections={[RECEIVER_PROBLEM_TEXTS, ERROR_CODE_TEXTS]}
                    fallback="La entrega al comprador tuvo un problema."
                  />
                </dd>
              </>
            ) : null}
            {receiverDelivery.nextAttemptAt ? (
              <>
                <dt>Próximo intento</dt>
                <dd>{formatDateTime(receiverDelivery.nextAttemptAt)}</dd>
              </>
            ) : null}
          </dl>
        )}
      </Panel>
      <Panel title="Correo al comprador">
        <Table
          caption="Intentos de correo al comprador"
          captionHidden
          rows={buyerEmailAttempts}
          rowKey={(attempt) => String(attempt.attempt)}
          empty="No se ha enviado correo al comprador."
          columns={[
            { header: 'Intento', rowHeader: true, cell: (attempt) => attempt.attempt },
            { header: 'Destinatario', cell: (attempt) => attempt.to ?? '—' },
            { header: 'Inicio', nowrap: true, cell: (attempt) => formatShortDateTime(attempt.startedAt) },
            {
              header: 'Resultado',
              cell: (attempt) => EMAIL_OUTCOME_LABELS[attempt.outcome] ?? attempt.outcome,
            },
            {
              header: 'Error',
              cell: (attempt) =>
                attempt.error === null ? (
                  '—'
                ) : (
                  <ProblemText text={attempt.error} sections={[]} fallback="El correo no se pudo entregar." />
                ),
            },
          ]}
        />
      </Panel>
    </>
  );
}
