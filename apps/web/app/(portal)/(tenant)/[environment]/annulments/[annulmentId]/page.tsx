import Link from 'next/link';
import { notFound } from 'next/navigation';
import { Banner, PageHeader, Panel, StatusBadge, Table, type TStatusTone } from '@ecf/ui';
import { AnnulmentReconcileForm } from '../../../../../../components/annulment-reconcile-form.tsx';
import { ecfTypeLabel } from '../../../../../../components/document-labels.ts';
import { ANNULMENT_STATUS_LABELS, CONFLICT_REASON_LABELS } from '../../../../../../lib/annulment-schemas.ts';
import { isEnvironment } from '../../../../../../lib/environments.ts';
import { requirePageCapability } from '../../../../../../server/page-access.ts';
import { orNotFound, serverApi } from '../../../../../../server/trpc/server-caller.ts';
import styles from '../../../../../../components/annulments.module.css';

export const metadata = { title: 'Anulación' };

const TONES: Record<string, TStatusTone> = {
  built: 'info',
  sending: 'info',
  accepted: 'success',
  rejected: 'danger',
  uncertain: 'warning',
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** One annulment: state, ranges, the tax authority's answer, covered documents; reconcile when uncertain. */
export default async function AnnulmentPage(props: {
  params: Promise<{ environment: string; annulmentId: string }>;
}) {
  const { environment, annulmentId } = await props.params;
  await requirePageCapability('annulments.read');
  if (!isEnvironment(environment)) return null; // the environment layout answered 404 already
  if (!UUID.test(annulmentId)) notFound();
  const { annulment, canManage } = await orNotFound(
    (await serverApi()).annulments.get({ environment, annulmentId }),
  );
  const { cancelled, skipped } = annulment.coveredDocuments;
  return (
    <>
      <PageHeader
        title="Anulación de e-NCF"
        description={<Link href={`/${environment}/annulments`}>Volver a Anulaciones</Link>}
      />
      <Panel title="Estado">
        <dl className={styles.facts}>
          <dt>Estado</dt>
          <dd>
            <StatusBadge tone={TONES[annulment.status] ?? 'neutral'}>
              {ANNULMENT_STATUS_LABELS[annulment.status] ?? annulment.status}
            </StatusBadge>
          </dd>
          <dt>Creada</dt>
          <dd>{annulment.createdAt}</dd>
          <dt>Respuesta</dt>
          <dd>{annulment.answeredAt ?? '—'}</dd>
          <dt>Motivo</dt>
          <dd>{annulment.reason ?? '—'}</dd>
        </dl>
        {annulment.taxauth && annulment.taxauth.mensajes.length > 0 ? (
          <ul className={styles.list} aria-label="Mensajes de la DGII">
            {annulment.taxauth.mensajes.map((message, index) => (
              <li key={index}>{message}</li>
            ))}
          </ul>
        ) : null}
        <Table
          caption="Rangos"
          rows={annulment.ranges}
          rowKey={(range) => `${range.from}-${range.to}`}
          columns={[
            { header: 'Tipo', cell: (range) => ecfTypeLabel(range.type), rowHeader: true, nowrap: true },
            { header: 'Desde', cell: (range) => range.from },
            { header: 'Hasta', cell: (range) => range.to },
            {
              header: 'e-NCF',
              nowrap: true,
              cell: (range) => range.count.toLocaleString('es-DO'),
              numeric: true,
            },
          ]}
        />
      </Panel>
      <Panel title="Documentos cubiertos">
        <Table
          caption="Cancelados"
          rows={cancelled}
          rowKey={(document) => document.documentId}
          empty="Ningún documento cancelado."
          columns={[
            {
              header: 'e-NCF',
              nowrap: true,
              cell: (document) => (
                <Link href={`/${environment}/documents/${document.documentId}`}>{document.encf}</Link>
              ),
              rowHeader: true,
            },
          ]}
        />
        <Table
          caption="Omitidos (pudieron llegar a la DGII o al comprador)"
          rows={skipped}
          rowKey={(document) => document.documentId}
          empty="Ningún documento omitido."
          columns={[
            {
              header: 'e-NCF',
              nowrap: true,
              cell: (document) => (
                <Link href={`/${environment}/documents/${document.documentId}`}>{document.encf}</Link>
              ),
              rowHeader: true,
            },
            { header: 'Estado', cell: (document) => document.status },
            {
              header: 'Motivo',
              cell: (document) => CONFLICT_REASON_LABELS[document.reason] ?? document.reason,
            },
          ]}
        />
      </Panel>
      {annulment.reconciliation ? (
        <Panel title="Conciliación">
          <dl className={styles.facts}>
            <dt>Resultado</dt>
            <dd>
              {ANNULMENT_STATUS_LABELS[annulment.reconciliation.outcome] ?? annulment.reconciliation.outcome}
            </dd>
            <dt>Fecha</dt>
            <dd>{annulment.reconciliation.reconciledAt}</dd>
            <dt>Evidencia (SHA-256)</dt>
            <dd className={styles.code}>{annulment.reconciliation.evidenceSha256}</dd>
            <dt>Nota</dt>
            <dd>{annulment.reconciliation.note ?? '—'}</dd>
          </dl>
        </Panel>
      ) : annulment.status === 'uncertain' ? (
        <Panel title="Conciliar">
          <Banner tone="warning">
            La DGII no respondió o anuló solo una parte. No se reenvía: consulte con la DGII y fije aquí el
            resultado con su respuesta como evidencia.
          </Banner>
          {canManage ? <AnnulmentReconcileForm environment={environment} annulmentId={annulment.id} /> : null}
        </Panel>
      ) : null}
    </>
  );
}
