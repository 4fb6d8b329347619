import { formatDateTime } from '../lib/format.ts';
import { DOCUMENT_STATUS_LABELS, EVENT_LABELS } from './document-labels.ts';
import styles from './document-pages.module.css';

export type TTimelineEntry = {
  id: string;
  type: string;
  fromStatus: string | null;
  toStatus: string | null;
  at: string;
  taxauthMessages: { code: string; message: string }[];
  details: Record<string, string | number | boolean | null>;
};

/** Event members worth a line on the timeline, with their Spanish names. */
const DETAIL_LABELS: Record<string, string> = {
  attempt: 'Intento',
  trackId: 'TrackId',
  outcome: 'Resultado',
  code: 'Código',
  reason: 'Motivo',
  message: 'Mensaje',
  status: 'Estado',
  to: 'Para',
  targetUrl: 'Destino',
  channel: 'Canal',
};

/** A document's event log as an ordered list: what happened, when, the status change and the tax authority's messages. */
export function DocumentTimeline(props: { entries: readonly TTimelineEntry[] }) {
  if (props.entries.length === 0) return <p className={styles.muted}>Sin eventos.</p>;
  return (
    <ol className={styles.timeline} aria-label="Eventos del documento">
      {props.entries.map((entry) => {
        const details = Object.entries(entry.details).filter(
          ([key, value]) => DETAIL_LABELS[key] !== undefined && value !== null && value !== '',
        );
        return (
          <li key={entry.id} data-event-type={entry.type}>
            <strong>{EVENT_LABELS[entry.type] ?? entry.type}</strong>{' '}
            <span className={styles.muted}>{formatDateTime(entry.at)}</span>
            {entry.toStatus !== null ? (
              <div>
                Estado:{' '}
                {entry.fromStatus === null
                  ? ''
                  : `${DOCUMENT_STATUS_LABELS[entry.fromStatus] ?? entry.fromStatus} → `}
                {DOCUMENT_STATUS_LABELS[entry.toStatus] ?? entry.toStatus}
              </div>
            ) : null}
            {details.length > 0 ? (
              <div className={styles.muted}>
                {details.map(([key, value]) => `${DETAIL_LABELS[key] ?? key}: ${String(value)}`).join(' · ')}
              </div>
            ) : null}
            {entry.taxauthMessages.length > 0 ? (
              <ul className={styles.issues} aria-label="Mensajes de la DGII">
                {entry.taxauthMessages.map((message, index) => (
                  <li key={index}>
                    DGII {message.code ? `${message.code}: ` : ''}
                    {message.message}
                  </li>
                ))}
              </ul>
            ) : null}
          </li>
        );
      })}
    </ol>
  );
}
