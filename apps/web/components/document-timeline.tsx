import { TechnicalDetails } from '@ecf/ui';
import {
  DELIVERY_STATUS_LABELS,
  DOCUMENT_PROBLEM_TEXTS,
  DOCUMENT_STATUS_LABELS,
  EMAIL_OUTCOME_LABELS,
  EVENT_LABELS,
  labelOf,
  RECEIVER_NOT_APPLICABLE_LABELS,
  RECEIVER_OUTCOME_LABELS,
  RECEIVER_PROBLEM_TEXTS,
  TRANSMISSION_OUTCOME_LABELS,
} from '../lib/catalogue.ts';
import { formatDateTime } from '../lib/format.ts';
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
  code: 'Problema',
  reason: 'Motivo',
  message: 'Mensaje',
  status: 'Estado',
  to: 'Para',
  targetUrl: 'Destino',
  channel: 'Canal',
};

/** The channel of a transmission attempt. */
const CHANNEL_LABELS: Record<string, string> = {
  ecf: 'e-CF',
  rfce: 'RFCE (resumen de consumo)',
  email: 'Correo',
};

/**
 * A detail's value in words: outcomes, statuses, reasons and codes through the catalogue (by the
 * event's kind); numbers, TrackIds, addresses and recipients as they are. `message` is raw text a
 * system wrote: it goes behind "Detalles técnicos", never here.
 */
function detailText(eventType: string, key: string, value: string | number | boolean): string {
  const text = String(value);
  const receiver = eventType.startsWith('receiver_delivery');
  const email = eventType.startsWith('buyer_email');
  switch (key) {
    case 'outcome':
      return labelOf(
        receiver ? RECEIVER_OUTCOME_LABELS : email ? EMAIL_OUTCOME_LABELS : TRANSMISSION_OUTCOME_LABELS,
        text,
      );
    case 'status':
      return labelOf(receiver ? DELIVERY_STATUS_LABELS : DOCUMENT_STATUS_LABELS, text);
    case 'reason':
      return Object.hasOwn(RECEIVER_NOT_APPLICABLE_LABELS, text)
        ? labelOf(RECEIVER_NOT_APPLICABLE_LABELS, text)
        : 'ver detalles técnicos';
    case 'code':
      return Object.hasOwn(RECEIVER_PROBLEM_TEXTS, text)
        ? labelOf(RECEIVER_PROBLEM_TEXTS, text)
        : Object.hasOwn(DOCUMENT_PROBLEM_TEXTS, text)
          ? labelOf(DOCUMENT_PROBLEM_TEXTS, text)
          : 'ver detalles técnicos';
    case 'channel':
      return CHANNEL_LABELS[text] ?? text;
    default:
      return text;
  }
}

/** What a system wrote on the event (its `code`, `reason` and `message` as they were), for "Detalles técnicos". */
function technicalOf(details: TTimelineEntry['details']): string {
  return ['code', 'reason', 'message']
    .map((key) => details[key])
    .filter(
      (value): value is string | number | boolean => value !== null && value !== undefined && value !== '',
    )
    .map(String)
    .join('\n');
}

/** A document's event log as an ordered list: what happened, when, the status change and the tax authority's messages. */
export function DocumentTimeline(props: { entries: readonly TTimelineEntry[] }) {
  if (props.entries.length === 0) return <p className={styles.muted}>Sin eventos.</p>;
  return (
    <ol className={styles.timeline} aria-label="Eventos del documento">
      {props.entries.map((entry) => {
        const details = Object.entries(entry.details).filter(
          (pair): pair is [string, string | number | boolean] =>
            DETAIL_LABELS[pair[0]] !== undefined &&
            pair[0] !== 'message' &&
            pair[1] !== null &&
            pair[1] !== '',
        );
        const technical = technicalOf(entry.details);
        return (
          <li key={entry.id} data-event-type={entry.type}>
            <strong>{labelOf(EVENT_LABELS, entry.type)}</strong>{' '}
            <span className={styles.muted}>{formatDateTime(entry.at)}</span>
            {entry.toStatus !== null ? (
              <div>
                Estado:{' '}
                {entry.fromStatus === null ? '' : `${labelOf(DOCUMENT_STATUS_LABELS, entry.fromStatus)} → `}
                {labelOf(DOCUMENT_STATUS_LABELS, entry.toStatus)}
              </div>
            ) : null}
            {details.length > 0 ? (
              <div className={styles.muted}>
                {details
                  .map(
                    ([key, value]) => `${DETAIL_LABELS[key] ?? key}: ${detailText(entry.type, key, value)}`,
                  )
                  .join(' · ')}
              </div>
            ) : null}
            {technical === '' ? null : <TechnicalDetails technical={technical} />}
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
