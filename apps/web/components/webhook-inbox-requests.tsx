import { CopyButton, StatusBadge } from '@ecf/ui';
import { formatDateTime } from '../lib/format.ts';
import { prettyJson } from '../lib/pretty-json.ts';
import { WEBHOOK_SIGNATURE_REASON_TEXTS, validSignatureText } from '../lib/webhook-inbox-labels.ts';
import { WEBHOOK_SNIPPETS } from '../lib/webhook-snippets.ts';
import { WEBHOOK_EVENT_TYPE_LABELS } from '../server/routers/webhooks/webhook.schema.ts';
import type { ZWebhookInboxRequest } from '../server/routers/webhooks/list-webhook-inbox-requests.schema.ts';
import type { z } from 'zod';
import styles from './webhooks.module.css';

type TInboxRequest = z.infer<typeof ZWebhookInboxRequest>;

/** The event's Spanish name (its code stays in the headers shown below). */
const eventLabelOf = (type: string | undefined) =>
  type === undefined ? 'Solicitud sin tipo de evento' : (WEBHOOK_EVENT_TYPE_LABELS[type] ?? 'Evento');

/**
 * What a TesteCF test inbox received, newest first: when, the signature check with its reason, the
 * headers and the body indented (tokens as received). Server-rendered: the page's "Actualizar"
 * reloads it.
 */
export function WebhookInboxRequests(props: {
  inboxUrl: string;
  keepDays: number;
  keepRequests: number;
  requests: readonly TInboxRequest[];
}) {
  return (
    <div data-testid="webhook-inbox">
      <p>
        Dirección de la bandeja: <span className={styles.code}>{props.inboxUrl}</span>. Se guardan las últimas{' '}
        {props.keepRequests} solicitudes durante {props.keepDays} días; aquí se ven las más recientes.
      </p>
      {props.requests.length === 0 ? (
        <p>
          Aún no llegó ninguna solicitud. Use «Enviar prueba» en la lista de endpoints, o emita un e-CF de
          prueba, y pulse «Actualizar».
        </p>
      ) : (
        props.requests.map((request) => (
          <article
            key={request.id}
            className={styles.delivery}
            aria-labelledby={`inbox-request-${request.id}`}
            data-testid="webhook-inbox-request"
          >
            <div className={styles.deliveryHeader}>
              <h3 id={`inbox-request-${request.id}`} className={styles.deliveryTitle}>
                {eventLabelOf(request.headers['svc-event-type'])} · recibida{' '}
                {formatDateTime(request.receivedAt)}
              </h3>
              <StatusBadge tone={request.signature.valid ? 'success' : 'danger'}>
                {request.signature.valid ? 'Firma válida' : 'Firma inválida'}
              </StatusBadge>
            </div>
            <p className={styles.muted}>
              {request.signature.valid
                ? validSignatureText(request.signature)
                : request.signature.reason === null
                  ? ''
                  : WEBHOOK_SIGNATURE_REASON_TEXTS[request.signature.reason]}
            </p>
            <h4 className={styles.subheading}>Cabeceras</h4>
            <dl className={styles.facts}>
              {Object.entries(request.headers).map(([name, value]) => (
                <div key={name} className={styles.factRow}>
                  <dt className={styles.code}>{name}</dt>
                  <dd className={styles.code}>{value}</dd>
                </div>
              ))}
            </dl>
            <h4 className={styles.subheading}>
              Cuerpo ({request.bodyBytes} bytes
              {request.bodyTruncated ? ', se guardaron los primeros 64 KiB' : ''})
            </h4>
            <pre
              className={styles.codeBlock}
              tabIndex={0}
              aria-label={`Cuerpo de la solicitud ${request.id}`}
            >
              {prettyJson(request.body)}
            </pre>
          </article>
        ))
      )}
    </div>
  );
}

/** The signature check in JavaScript, Python and C#, to copy into a receiver. */
export function WebhookSignatureSnippets() {
  return (
    <div data-testid="webhook-snippets">
      <p>
        Compruebe la firma en su receptor con los bytes del cuerpo tal como llegan, antes de leerlo como JSON:
        Svc-Signature es t=&lt;segundos&gt;,v1=&lt;firma&gt; y la firma es el HMAC-SHA256 en hexadecimal de
        «t.cuerpo» con el secreto del endpoint. Rechace t a más de 5 minutos de su reloj y compare en tiempo
        constante.
      </p>
      {WEBHOOK_SNIPPETS.map((snippet) => (
        <section key={snippet.id} aria-labelledby={`snippet-${snippet.id}`} className={styles.snippet}>
          <div className={styles.deliveryHeader}>
            <h3 id={`snippet-${snippet.id}`} className={styles.deliveryTitle}>
              {snippet.label}
            </h3>
            <CopyButton value={snippet.code} label={`Copiar ${snippet.label}`} copiedLabel="Copiado" />
          </div>
          <pre className={styles.codeBlock} tabIndex={0} aria-label={`Código en ${snippet.label}`}>
            {snippet.code}
          </pre>
        </section>
      ))}
    </div>
  );
}
