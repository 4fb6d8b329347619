'use client';
import { useState } from 'react';
import { useMutation, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { Banner, Button, LinkButton, StatusBadge, Table } from '@ecf/ui';
import {
  ACTIVE_RUN_STATES,
  FINAL_DOCUMENT_STATUSES,
  ITEM_STATE_LABELS,
  ITEM_STATE_TONES,
  PART_LABELS,
  RUN_STATE_LABELS,
  RUN_STATE_TONES,
  runFailureText,
  SOURCE_LABELS,
} from '../lib/certification-schemas.ts';
import { formatDateTime } from '../lib/format.ts';
import { failureOf, formMessageOf } from '../lib/trpc-errors.ts';
import { useTRPC } from '../lib/trpc/client.tsx';
import type { ZRunView } from '../server/routers/certification/certification.schema.ts';
import { ecfTypeLabel } from './document-labels.ts';
import { DocumentStatusBadge } from './document-status-badge.tsx';
import styles from './certification.module.css';

type TRun = z.infer<typeof ZRunView>;
type TItem = TRun['items'][number];

/** A receipt the tax authority has not resolved yet: it can be sent again (or its status asked). */
const isStuck = (item: TItem) =>
  item.state === 'issued' &&
  item.documentId !== null &&
  item.documentStatus !== null &&
  !FINAL_DOCUMENT_STATUSES.includes(item.documentStatus);

const RESEND_LABELS: Record<string, string> = {
  signing: 'se firma de nuevo',
  resent: 'se reenvía a la DGII',
  status_queried: 'se consulta su estado en la DGII',
};

function ResendButton(props: { item: TItem; onDone: () => void }) {
  const trpc = useTRPC();
  const [result, setResult] = useState<{ tone: 'success' | 'danger'; text: string } | null>(null);
  const resend = useMutation(trpc.certification.resend.mutationOptions());
  async function run() {
    setResult(null);
    try {
      const answer = await resend.mutateAsync({
        environment: 'CerteCF',
        documentId: props.item.documentId ?? '',
      });
      setResult({
        tone: 'success',
        text: `${answer.encf}: ${RESEND_LABELS[answer.action] ?? answer.action}.`,
      });
      props.onDone();
    } catch (error) {
      setResult({ tone: 'danger', text: formMessageOf(failureOf(error)) });
    }
  }
  return (
    <>
      <Button size="small" variant="secondary" busy={resend.isPending} onClick={() => void run()}>
        Reenviar {props.item.encf}
      </Button>
      {result ? (
        <p role="status" className={result.tone === 'danger' ? styles.error : styles.muted}>
          {result.text}
        </p>
      ) : null}
    </>
  );
}

/**
 * A run row by row: each workbook row, its document's state, the tax authority's messages for a
 * rejected row, the document's page, and a resend for a receipt still waiting; refreshed every 2
 * seconds while the run moves. The evidence ZIP downloads at any time (final once the run ended).
 */
export function CertificationRunView(props: {
  initial: TRun;
  canManage: boolean;
  /** The evidence ZIP's route. */
  evidenceHref: string;
  /** The page of a document (`${documentPath}/${documentId}`); null where documents have no page. */
  documentPath: string | null;
}) {
  const trpc = useTRPC();
  const query = useQuery(
    trpc.certification.run.queryOptions(
      { environment: 'CerteCF', runId: props.initial.runId },
      {
        initialData: { run: props.initial, canManage: props.canManage },
        refetchInterval: (current) =>
          ACTIVE_RUN_STATES.includes(current.state.data?.run.state ?? '') ? 2000 : false,
      },
    ),
  );
  const run = query.data?.run ?? props.initial;
  const active = ACTIVE_RUN_STATES.includes(run.state);
  const { totals } = run;
  return (
    <>
      <dl className={styles.facts}>
        <dt>Estado</dt>
        <dd aria-live="polite" data-testid="run-state" data-state={run.state}>
          <StatusBadge tone={RUN_STATE_TONES[run.state] ?? 'neutral'}>
            {RUN_STATE_LABELS[run.state] ?? run.state}
          </StatusBadge>{' '}
          {active ? '(actualizando cada 2 segundos…)' : null}
        </dd>
        <dt>Parte</dt>
        <dd>{PART_LABELS[run.part] ?? run.part}</dd>
        <dt>Set</dt>
        <dd>{SOURCE_LABELS[run.source] ?? run.source}</dd>
        <dt>Creada</dt>
        <dd>{formatDateTime(run.createdAt)}</dd>
        <dt>Terminada</dt>
        <dd>{run.finishedAt ? formatDateTime(run.finishedAt) : '—'}</dd>
        <dt>Documentos</dt>
        <dd>
          {totals.accepted} de {totals.documents} aceptados
          {totals.issued > 0 ? `, ${totals.issued} esperando respuesta` : ''}
          {totals.pending > 0 ? `, ${totals.pending} por emitir` : ''}
          {totals.rejected > 0 ? `, ${totals.rejected} rechazados` : ''}
          {totals.failed > 0 ? `, ${totals.failed} fallidos` : ''}
          {totals.stopped > 0 ? `, ${totals.stopped} no enviados` : ''}
        </dd>
      </dl>
      {run.replacedAt ? (
        <Banner tone="info">Esta corrida fue reemplazada por un reinicio de su parte.</Banner>
      ) : null}
      {run.state === 'succeeded' ? (
        <Banner tone="success" title="Corrida aceptada">
          La DGII aceptó todos los documentos. Vuelva a la certificación para el siguiente paso.
        </Banner>
      ) : null}
      {run.failure ? (
        <Banner tone={run.state === 'failed' ? 'danger' : 'warning'} title="La corrida no terminó">
          <p>{runFailureText(run.failure, run.part)}</p>
          {run.failure.messages.length > 0 ? (
            <ul className={styles.messages} aria-label="Mensajes de la DGII">
              {run.failure.messages.map((message, index) => (
                <li key={index}>
                  {message.code ? <code>{message.code}</code> : null} {message.message}
                </li>
              ))}
            </ul>
          ) : null}
        </Banner>
      ) : null}
      <div className={styles.actions}>
        <LinkButton href={props.evidenceHref} download>
          Descargar evidencia (ZIP)
        </LinkButton>
        <span className={styles.muted}>
          {active
            ? 'Mientras la corrida avanza, el ZIP es una foto del momento.'
            : 'XML firmados, respuestas de la DGII, PDF y manifest.json con el SHA-256 de cada archivo.'}
        </span>
      </div>
      <Table
        caption="Documentos de la corrida, fila por fila"
        rows={run.items}
        rowKey={(item) => String(item.position)}
        columns={[
          { header: 'Orden', numeric: true, rowHeader: true, cell: (item) => item.position },
          { header: 'Fila', numeric: true, cell: (item) => item.row ?? '—' },
          { header: 'CasoPrueba', cell: (item) => <code>{item.caseRef ?? '—'}</code> },
          { header: 'Tipo', nowrap: true, cell: (item) => ecfTypeLabel(item.type) },
          {
            header: 'e-NCF',
            nowrap: true,
            cell: (item) =>
              item.documentId !== null && props.documentPath !== null ? (
                <a href={`${props.documentPath}/${item.documentId}`}>{item.encf}</a>
              ) : (
                <code>{item.encf}</code>
              ),
          },
          {
            header: 'Estado',
            cell: (item) => (
              <span data-testid="item-state" data-state={item.state}>
                <StatusBadge tone={ITEM_STATE_TONES[item.state] ?? 'neutral'}>
                  {ITEM_STATE_LABELS[item.state] ?? item.state}
                </StatusBadge>
              </span>
            ),
          },
          {
            header: 'Documento',
            cell: (item) =>
              item.documentStatus === null ? '—' : <DocumentStatusBadge status={item.documentStatus} />,
          },
          {
            header: 'Mensajes de la DGII',
            cell: (item) =>
              item.taxauthMessages.length === 0 && item.problem === null ? (
                '—'
              ) : (
                <ul className={styles.messages}>
                  {item.taxauthMessages.map((message, index) => (
                    <li key={index}>
                      {message.code ? <code>{message.code}</code> : null} {message.message}
                    </li>
                  ))}
                  {item.problem === null ? null : <li>{item.problem}</li>}
                </ul>
              ),
          },
          ...(props.canManage
            ? [
                {
                  header: 'Acción',
                  cell: (item: TItem) =>
                    isStuck(item) ? <ResendButton item={item} onDone={() => void query.refetch()} /> : '—',
                },
              ]
            : []),
        ]}
      />
    </>
  );
}
