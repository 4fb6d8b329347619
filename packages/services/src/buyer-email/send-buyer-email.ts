/**
 * Buyer e-mail: when an e-CF becomes accepted or accepted-conditional in an environment
 * where the account enabled it (`Tenant.buyerEmailEnvironments`), and the signed e-CF carries
 * `CorreoComprador`, the buyer gets an e-mail with a signed link to its printed representation
 * (`GET /ri/{token}`, valid 30 days from sending).
 *
 * Sending is its own job (`document.email-buyer`), enqueued in the acceptance's transaction: a
 * failing SMTP server is retried by pg-boss and never holds the fiscal pipeline. Every attempt is
 * in the event log (`buyer_email_sent` / `buyer_email_failed`, attempt number and the SMTP error,
 * never credentials); the document's own state is never touched.
 */
import { sqlPoolOf, type TDatabase } from '@ecf/db';
import {
  BUYER_DELIVERABLE_STATUSES,
  createRiLinkToken,
  loadPrinting,
  loadSignedTree,
  textOf,
} from '../documents/index.ts';
import { appendDocumentEvents, loadBuyerEmailDocument } from '../persistence/index.ts';
import { composeBuyerEmail } from './compose-buyer-email.ts';
import {
  BUYER_EMAIL_EVENT_TYPES,
  type TBuyerEmailOptions,
  type TBuyerEmailReport,
} from './buyer-email-rules.ts';
import { BuyerEmailError, describeSmtpError, sendSmtpMessage } from './smtp.ts';

/**
 * Sends the buyer e-mail of one document, once. Does nothing (and says why) when the account did not
 * enable the environment, the document is not accepted, or the signed e-CF has no `CorreoComprador`.
 * A transient SMTP failure is recorded and thrown (the job is retried); a permanent refusal is
 * recorded and not retried.
 */
export async function sendBuyerEmail(
  options: TBuyerEmailOptions & { database: TDatabase; documentId: string },
): Promise<TBuyerEmailReport> {
  const { database, documentId } = options;
  const now = options.now ?? (() => new Date());
  const document = await loadBuyerEmailDocument(database, {
    documentId,
    historyTypes: [BUYER_EMAIL_EVENT_TYPES.SENT, BUYER_EMAIL_EVENT_TYPES.FAILED],
  });
  if (!document) return { documentId, outcome: 'not_found' };
  if (!document.tenant.buyerEmailEnvironments.includes(document.environment))
    return { documentId, outcome: 'not_enabled' };
  if (!BUYER_DELIVERABLE_STATUSES.has(document.status)) return { documentId, outcome: 'not_deliverable' };
  const { history } = document;
  if (history.some((event) => event.type === BUYER_EMAIL_EVENT_TYPES.SENT))
    return { documentId, outcome: 'already_sent' };
  if (history.some((event) => (event.data as { permanent?: unknown }).permanent === true))
    return { documentId, outcome: 'failed_permanently' };
  const signed = await loadSignedTree(database, document);
  if (!signed) return { documentId, outcome: 'not_signed' };
  const to = textOf(signed.tree, 'Encabezado', 'Comprador', 'CorreoComprador')?.trim();
  if (!to) return { documentId, outcome: 'no_buyer_email' };

  const attempt = history.length + 1;
  const at = now();
  const { token, expiresAt } = createRiLinkToken(
    { documentId: document.id, environment: document.environment, issuedAt: at },
    options.linkSecret,
  );
  const link = `${options.publicBaseUrl.replace(/\/+$/, '')}/ri/${token}`;
  const message = composeBuyerEmail(
    {
      type: document.type,
      encf: document.encf,
      issuerName:
        textOf(signed.tree, 'Encabezado', 'Emisor', 'NombreComercial') ??
        textOf(signed.tree, 'Encabezado', 'Emisor', 'RazonSocialEmisor') ??
        document.tenant.tradeName ??
        document.tenant.legalName,
      buyerName: textOf(signed.tree, 'Encabezado', 'Comprador', 'RazonSocialComprador'),
      total: textOf(signed.tree, 'Encabezado', 'Totales', 'MontoTotal') ?? document.totalAmount.toFixed(2),
      link,
      expiresAt,
      environment: document.environment,
    },
    await loadPrinting(),
  );

  try {
    const messageId = await sendSmtpMessage(options.transport, {
      from: options.from,
      to,
      ...(document.tenant.fiscalEmail ? { replyTo: document.tenant.fiscalEmail } : {}),
      subject: message.subject,
      text: message.text,
      html: message.html,
    });
    await recordAttempt(
      database,
      document,
      BUYER_EMAIL_EVENT_TYPES.SENT,
      {
        attempt,
        to,
        messageId,
        linkExpiresAt: expiresAt.toISOString(),
        at: at.toISOString(),
      },
      now(),
    );
    return { documentId, outcome: 'sent', attempt };
  } catch (error) {
    const secrets = [options.transport.auth?.pass, options.transport.auth?.user, options.linkSecret].filter(
      (secret): secret is string => typeof secret === 'string',
    );
    const failure = describeSmtpError(error, secrets);
    await recordAttempt(
      database,
      document,
      BUYER_EMAIL_EVENT_TYPES.FAILED,
      { attempt, ...failure, at: now().toISOString() },
      now(),
    );
    if (failure.permanent) return { documentId, outcome: 'failed_permanently', attempt };
    throw new BuyerEmailError(
      `buyer e-mail of ${document.encf} (attempt ${attempt}) failed: ${failure.message}`,
    );
  }
}

async function recordAttempt(
  database: TDatabase,
  document: { id: string },
  type: string,
  data: Record<string, unknown>,
  at: Date,
): Promise<void> {
  await appendDocumentEvents(sqlPoolOf(database), { documentId: document.id, events: [{ type, data, at }] });
}
