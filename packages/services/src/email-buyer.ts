/**
 * Buyer e-mail (issue 7): when an e-CF becomes accepted or accepted-conditional in an environment
 * where the account enabled it (`Tenant.buyerEmailEnvironments`), and the signed e-CF carries
 * `CorreoComprador`, the buyer gets an e-mail with a signed link to its printed representation
 * (`GET /ri/{token}`, valid 30 days from sending).
 *
 * Sending is its own job (`document.email-buyer`), enqueued in the acceptance's transaction: a
 * failing SMTP server is retried by pg-boss and never holds the fiscal pipeline. Every attempt is
 * in the event log (`buyer_email_sent` / `buyer_email_failed`, attempt number and the SMTP error,
 * never credentials); the document's own state is never touched.
 */
import nodemailer from 'nodemailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport';
import {
  inSqlTransaction,
  jobExecutorOfSql,
  sqlPoolOf,
  type Document,
  type DocumentStatus,
  type Prisma,
  type TDatabase,
  type TSql,
} from '@ecf/db';
import { dominicanDateOf, formatTaxauthDate } from '@ecf/fiscal-core';
import type { TEnqueueJob } from './job-executor.ts';
import { loadPrinting, type TPrintingModule } from './printed-renderer.ts';
import { loadSignedTree, textOf } from './printed-representation.ts';
import { createRiLinkToken } from './ri-link.ts';

/** Event types of the buyer e-mail in a document's log. */
export const BUYER_EMAIL_EVENT_TYPES = {
  /** The SMTP server took the message: `{ attempt, to, messageId, linkExpiresAt, at }`. */
  SENT: 'buyer_email_sent',
  /** An attempt failed: `{ attempt, code, responseCode, message, permanent, at }` (no credentials). */
  FAILED: 'buyer_email_failed',
} as const;

/** Statuses in which the buyer is e-mailed (and in which the link serves the PDF). */
export const BUYER_EMAIL_STATUSES: ReadonlySet<DocumentStatus> = new Set([
  'accepted',
  'accepted_conditional',
]);

/** SMTP settings and the link's ingredients; the worker builds them from its environment. */
export type TBuyerEmailOptions = {
  /** nodemailer SMTP transport options (host, port, secure, auth). */
  transport: SMTPTransport.Options;
  /** `From` of the message, e.g. `Facturación electrónica <no-reply@example.com>`. */
  from: string;
  /** Base address the buyer opens (`{publicBaseUrl}/ri/{token}`), no trailing slash needed. */
  publicBaseUrl: string;
  /** HMAC key of the link (RI_LINK_SECRET); the API checks links with the same key. */
  linkSecret: string;
  now?: () => Date;
};

export type TBuyerEmailOutcome =
  | 'sent'
  | 'already_sent'
  | 'not_found'
  | 'not_enabled'
  | 'not_deliverable'
  | 'no_buyer_email'
  | 'not_signed'
  | 'failed_permanently';

export type TBuyerEmailReport = { documentId: string; outcome: TBuyerEmailOutcome; attempt?: number };

/** Whether the document's account e-mails buyers in the document's environment (`sql`: the pool or a transaction). */
export async function isBuyerEmailEnabled(
  sql: TSql,
  document: Pick<Document, 'tenantId' | 'environment'>,
): Promise<boolean> {
  const { rows } = await sql.query<{ enabled: boolean }>(
    `SELECT $2::"Environment" = ANY(buyer_email_environments) AS enabled FROM tenants WHERE id = $1::uuid`,
    [document.tenantId, document.environment],
  );
  return rows[0]?.enabled === true;
}

/** Enqueues `document.email-buyer` on `transaction` (the acceptance's own). */
export async function scheduleBuyerEmail(
  transaction: TSql,
  document: Pick<Document, 'id'>,
  enqueue: TEnqueueJob,
): Promise<void> {
  await enqueue('document.email-buyer', { documentId: document.id }, jobExecutorOfSql(transaction));
}

/**
 * Runs `apply` (a final answer that moves the document) and, when it moved the document to an
 * accepted status in an environment with buyer e-mail on, enqueues the e-mail in the same
 * transaction. Without `enqueue`, or for any other status, `apply` runs alone on the pool.
 * `document.buyerEmailEnabled`, when the caller read it with the document, saves the look-up.
 */
export async function applyWithBuyerEmail(
  database: TDatabase,
  document: Pick<Document, 'id' | 'tenantId' | 'environment'> & { buyerEmailEnabled?: boolean },
  status: DocumentStatus,
  enqueue: TEnqueueJob | undefined,
  apply: (sql: TSql) => Promise<boolean>,
): Promise<boolean> {
  const pool = sqlPoolOf(database);
  if (enqueue === undefined || !BUYER_EMAIL_STATUSES.has(status)) return apply(pool);
  if (!(document.buyerEmailEnabled ?? (await isBuyerEmailEnabled(pool, document)))) return apply(pool);
  return inSqlTransaction(database, async (transaction) => {
    const moved = await apply(transaction);
    if (moved) await scheduleBuyerEmail(transaction, document, enqueue);
    return moved;
  });
}

/** A failed SMTP exchange: permanent when the server refused the message or a recipient with a 5xx. */
class BuyerEmailError extends Error {
  override readonly name = 'BuyerEmailError';
}

function describeSmtpError(error: unknown, secrets: string[]) {
  const smtp = error as { code?: unknown; responseCode?: unknown; command?: unknown; message?: unknown };
  let message = typeof smtp.message === 'string' ? smtp.message : String(error);
  for (const secret of secrets) if (secret.length > 0) message = message.split(secret).join('[REDACTED]');
  const responseCode = typeof smtp.responseCode === 'number' ? smtp.responseCode : null;
  const code = typeof smtp.code === 'string' ? smtp.code : null;
  // 5xx to the envelope or the data is the server's final word on this message; anything else
  // (connection refused, timeout, 4xx, authentication) may pass later.
  const permanent =
    responseCode !== null && responseCode >= 500 && (code === 'EENVELOPE' || code === 'EMESSAGE');
  return {
    code,
    responseCode,
    command: typeof smtp.command === 'string' ? smtp.command : null,
    message: message.slice(0, 1000),
    permanent,
  };
}

async function appendEvent(
  database: TDatabase,
  document: Pick<Document, 'id' | 'tenantId'>,
  type: string,
  data: Record<string, unknown>,
  at: Date,
): Promise<void> {
  await database.documentEvent.create({
    data: {
      documentId: document.id,
      tenantId: document.tenantId,
      type,
      data: data as Prisma.InputJsonValue,
      createdAt: at,
    },
  });
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

/** The Spanish message: subject with type name and eNCF; issuer, total and the link in the body. */
export function composeBuyerEmail(
  input: {
    type: number;
    encf: string;
    issuerName: string;
    buyerName: string | undefined;
    total: string;
    link: string;
    expiresAt: Date;
    environment: Document['environment'];
  },
  printing: Pick<TPrintingModule, 'ECF_TYPE_NAMES' | 'formatAmount'>,
) {
  const { ECF_TYPE_NAMES, formatAmount } = printing;
  const typeName = ECF_TYPE_NAMES[String(input.type)] ?? `e-CF tipo ${input.type}`;
  const subject = `${typeName} ${input.encf} de ${input.issuerName}`;
  const expires = formatTaxauthDate(dominicanDateOf(input.expiresAt.getTime()));
  const amount = `RD$ ${formatAmount(input.total)}`;
  const notice =
    input.environment === 'eCF'
      ? undefined
      : `Documento emitido en el ambiente ${input.environment} de la DGII: sin validez fiscal.`;
  const lines = [
    `Estimado(a) ${input.buyerName ?? 'cliente'}:`,
    '',
    `${input.issuerName} le ha emitido la ${typeName} ${input.encf} por un total de ${amount}, aceptada por la DGII.`,
    '',
    'Puede ver y descargar la representación impresa (PDF) en este enlace:',
    input.link,
    '',
    `El enlace es válido hasta el ${expires}.`,
    ...(notice ? ['', notice] : []),
    '',
    'Este es un mensaje automático; no responda a esta dirección.',
  ];
  const html =
    `<p>Estimado(a) ${escapeHtml(input.buyerName ?? 'cliente')}:</p>` +
    `<p>${escapeHtml(input.issuerName)} le ha emitido la <strong>${escapeHtml(typeName)} ${escapeHtml(input.encf)}</strong> por un total de <strong>${escapeHtml(amount)}</strong>, aceptada por la DGII.</p>` +
    `<p><a href="${escapeHtml(input.link)}">Ver la representación impresa (PDF)</a></p>` +
    `<p>El enlace es válido hasta el ${escapeHtml(expires)}.</p>` +
    (notice ? `<p><em>${escapeHtml(notice)}</em></p>` : '') +
    '<p style="color:#666">Este es un mensaje automático; no responda a esta dirección.</p>';
  return { subject, text: lines.join('\n'), html };
}

/**
 * Sends the buyer e-mail of one document, once. Does nothing (and says why) when the account did not
 * enable the environment, the document is not accepted, or the signed e-CF has no `CorreoComprador`.
 * A transient SMTP failure is recorded and thrown (the job is retried); a permanent refusal is
 * recorded and not retried.
 */
export async function sendBuyerEmail(
  database: TDatabase,
  documentId: string,
  options: TBuyerEmailOptions,
): Promise<TBuyerEmailReport> {
  const now = options.now ?? (() => new Date());
  const document = await database.document.findUnique({
    where: { id: documentId },
    include: {
      tenant: {
        select: { legalName: true, tradeName: true, fiscalEmail: true, buyerEmailEnvironments: true },
      },
    },
  });
  if (!document) return { documentId, outcome: 'not_found' };
  if (!document.tenant.buyerEmailEnvironments.includes(document.environment))
    return { documentId, outcome: 'not_enabled' };
  if (!BUYER_EMAIL_STATUSES.has(document.status)) return { documentId, outcome: 'not_deliverable' };
  const history = await database.documentEvent.findMany({
    where: { documentId, type: { in: [BUYER_EMAIL_EVENT_TYPES.SENT, BUYER_EMAIL_EVENT_TYPES.FAILED] } },
    select: { type: true, data: true },
  });
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

  const transport = nodemailer.createTransport({
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
    ...options.transport,
  });
  try {
    const info = await transport.sendMail({
      from: options.from,
      to,
      ...(document.tenant.fiscalEmail ? { replyTo: document.tenant.fiscalEmail } : {}),
      subject: message.subject,
      text: message.text,
      html: message.html,
    });
    await appendEvent(
      database,
      document,
      BUYER_EMAIL_EVENT_TYPES.SENT,
      {
        attempt,
        to,
        messageId: info.messageId,
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
    await appendEvent(
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
  } finally {
    transport.close();
  }
}
