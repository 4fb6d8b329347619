/**
 * A webhook delivery's attempts, one row each (start, duration, result, the receiver's HTTP code,
 * the first bytes of its answer, the error in Spanish with the raw text behind "Detalles técnicos"):
 * the tenant's endpoint page and the Partner's delivery page show the same table. The last attempt
 * of a delivery whose attempts ran out says "Sin más reintentos".
 */
import { Table } from '@ecf/ui';
import { WEBHOOK_FAILURE_TEXTS } from '../lib/catalogue.ts';
import { formatDateTime, formatShortDateTime } from '../lib/format.ts';
import { ProblemText } from './problem-text.tsx';
import styles from './webhooks.module.css';

const OUTCOME_LABELS = { succeeded: 'Entregado', retry: 'Se reintentará', failed: 'Fallido' } as const;

type TAttempt = {
  attempt: number;
  startedAt: string;
  durationMs: number;
  outcome: keyof typeof OUTCOME_LABELS;
  responseStatus: number | null;
  responseExcerpt: string | null;
  error: string | null;
};

/** Whether a delivery ended because its attempts ran out (no retry will come). */
export const isExhausted = (delivery: { status: string; failureReason: string | null }) =>
  delivery.status === 'failed' && delivery.failureReason === 'attempts_exhausted';

export function WebhookAttemptsTable(props: {
  delivery: {
    status: string;
    failureReason: string | null;
    attempts: number;
    createdAt: string;
    attemptLog: readonly TAttempt[];
  };
  /** The event's name as the page shows it (the table's caption). */
  eventLabel: string;
  empty: string;
}) {
  const { delivery } = props;
  return (
    <Table
      caption={`Intentos de la entrega ${props.eventLabel} del ${formatDateTime(delivery.createdAt)}`}
      captionHidden
      rows={[...delivery.attemptLog]}
      rowKey={(attempt) => String(attempt.attempt)}
      empty={props.empty}
      columns={[
        { header: 'Intento', rowHeader: true, numeric: true, cell: (attempt: TAttempt) => attempt.attempt },
        {
          header: 'Inicio',
          nowrap: true,
          cell: (attempt: TAttempt) => formatShortDateTime(attempt.startedAt),
        },
        { header: 'Duración', numeric: true, cell: (attempt: TAttempt) => `${attempt.durationMs} ms` },
        {
          header: 'Resultado',
          cell: (attempt: TAttempt) => (
            <>
              {isExhausted(delivery) && attempt.attempt === delivery.attempts
                ? 'Sin más reintentos'
                : OUTCOME_LABELS[attempt.outcome]}
              {attempt.error === null ? null : (
                <div className={styles.muted}>
                  <ProblemText
                    text={attempt.error}
                    sections={[WEBHOOK_FAILURE_TEXTS]}
                    fallback="El intento no tuvo éxito."
                  />
                </div>
              )}
            </>
          ),
        },
        {
          header: 'Código HTTP',
          numeric: true,
          cell: (attempt: TAttempt) => (attempt.responseStatus === null ? '—' : attempt.responseStatus),
        },
        {
          header: 'Respuesta (primeros bytes)',
          cell: (attempt: TAttempt) =>
            attempt.responseExcerpt === null || attempt.responseExcerpt === '' ? (
              '—'
            ) : (
              <pre className={styles.excerpt}>{attempt.responseExcerpt}</pre>
            ),
        },
      ]}
    />
  );
}
