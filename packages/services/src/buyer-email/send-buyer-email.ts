/**
 * Buyer e-mail: when an e-CF becomes accepted or accepted-conditional in an environment
 * where the account enabled it (`Tenant.buyerEmailEnvironments`), and the signed e-CF carries
 * `CorreoComprador`, the buyer gets an e-mail with a signed link to its printed representation
 * (`GET /ri/{token}`, valid 30 days from sending).
 *
 * Sending is its own job (`document.email-buyer`), enqueued in the acceptance's transaction: a
 * failing SMTP server is retried by pg-boss and never holds the fiscal pipeline. Every attempt is
 * in the event log (never credentials); the document's own state is never touched.
 *
 * At most once where the server accepted it, whatever instant the worker dies at:
 * - the intent (`buyer_email_intent`: attempt, recipient, a Message-ID stable per document and
 *   recipient) is committed BEFORE the SMTP transaction, one per attempt (a unique index: two runs
 *   cannot both send it), and the outcome after (`buyer_email_sent` / `buyer_email_failed`);
 * - an attempt whose outcome is unknown (an intent without outcome: a crash; or a connection that
 *   broke inside the SMTP transaction) is never simply resent. While it is younger than
 *   `inFlightMs` it may still be running elsewhere: the run comes back later. Then the message
 *   lookup (the provider's search by Message-ID) decides: found → recorded sent, not resent; not
 *   found → resent under the same Message-ID. Without a lookup nothing can decide: the attempt is
 *   recorded `buyer_email_uncertain`, an operator is notified, and the e-mail is not resent (the
 *   buyer may have no e-mail rather than two).
 */
import { sqlPoolOf, type TDatabase } from '@ecf/db';
import {
  BUYER_DELIVERABLE_STATUSES,
  createRiLinkToken,
  loadPrinting,
  loadSignedTree,
  textOf,
} from '../documents/index.ts';
import {
  appendDocumentEvents,
  claimBuyerEmailAttempt,
  findUnsentOperatorNotification,
  loadBuyerEmailDocument,
  markOperatorNotificationSent,
  recordOperatorNotification,
  type TBuyerEmailDocument,
  type TOperatorNotification,
} from '../persistence/index.ts';
import { composeBuyerEmail } from './compose-buyer-email.ts';
import {
  BuyerEmailError,
  BUYER_EMAIL_EVENT_TYPES,
  BUYER_EMAIL_UNCERTAIN_NOTIFICATION_KIND,
  buyerEmailMessageIdOf,
  DEFAULT_BUYER_EMAIL_IN_FLIGHT_MS,
  DEFAULT_SMTP_TIMEOUT_MS,
  type TBuyerEmailOptions,
  type TBuyerEmailReport,
} from './buyer-email-rules.ts';
import { describeSmtpError, sendSmtpMessage } from '../shared/smtp.ts';

const HISTORY_TYPES = Object.values(BUYER_EMAIL_EVENT_TYPES);

/** An attempt whose intent is recorded and whose outcome is not known. */
type TOpenAttempt = { attempt: number; at: Date; messageId: string | undefined; linkExpiresAt: unknown };

/**
 * Sends the buyer e-mail of one document, at most once. Does nothing (and says why) when the account
 * did not enable the environment, the document is not accepted, or the signed e-CF has no
 * `CorreoComprador`. A transient SMTP failure is recorded and thrown (the job is retried); a
 * permanent refusal is recorded and not retried.
 */
export async function sendBuyerEmail(
  options: TBuyerEmailOptions & { database: TDatabase; documentId: string },
): Promise<TBuyerEmailReport> {
  const { database, documentId } = options;
  const now = options.now ?? (() => new Date());
  const document = await loadBuyerEmailDocument(database, { documentId, historyTypes: HISTORY_TYPES });
  if (!document) return { documentId, outcome: 'not_found' };
  if (!document.tenant.buyerEmailEnvironments.includes(document.environment))
    return { documentId, outcome: 'not_enabled' };
  if (!BUYER_DELIVERABLE_STATUSES.has(document.status)) return { documentId, outcome: 'not_deliverable' };
  const { history } = document;
  if (history.some((event) => event.type === BUYER_EMAIL_EVENT_TYPES.SENT))
    return { documentId, outcome: 'already_sent' };
  if (history.some((event) => event.type === BUYER_EMAIL_EVENT_TYPES.UNCERTAIN))
    return { documentId, outcome: 'uncertain' };
  if (history.some((event) => (event.data as { permanent?: unknown }).permanent === true))
    return { documentId, outcome: 'failed_permanently' };
  const signed = await loadSignedTree(database, document);
  if (!signed) return { documentId, outcome: 'not_signed' };
  const to = textOf(signed.tree, 'Encabezado', 'Comprador', 'CorreoComprador')?.trim();
  if (!to) return { documentId, outcome: 'no_buyer_email' };
  const messageId = buyerEmailMessageIdOf({ documentId: document.id, recipient: to, from: options.from });

  const open = openAttemptOf(history);
  if (open !== undefined) {
    const age = now().getTime() - open.at.getTime();
    const inFlightMs = options.inFlightMs ?? DEFAULT_BUYER_EMAIL_IN_FLIGHT_MS;
    if (age >= 0 && age < inFlightMs)
      return {
        documentId,
        outcome: 'in_flight',
        attempt: open.attempt,
        retryAfterSeconds: Math.max(1, Math.ceil((inFlightMs - age) / 1000)),
      };
    const asked = open.messageId ?? messageId;
    if (options.lookupMessage === undefined)
      return recordUncertain(options, document, {
        attempt: open.attempt,
        to,
        messageId: asked,
        reason: 'the outcome of the attempt is unknown and no message lookup is configured',
      });
    // Cannot tell now (the lookup is down): thrown, the job is retried; nothing is sent meanwhile.
    if (await options.lookupMessage(asked)) {
      await recordEvent(database, document, BUYER_EMAIL_EVENT_TYPES.SENT, {
        attempt: open.attempt,
        to,
        messageId: asked,
        linkExpiresAt: open.linkExpiresAt,
        resolvedBy: 'message_lookup',
        at: now().toISOString(),
      });
      return { documentId, outcome: 'sent', attempt: open.attempt, resolvedBy: 'message_lookup' };
    }
    await recordEvent(database, document, BUYER_EMAIL_EVENT_TYPES.FAILED, {
      attempt: open.attempt,
      code: 'NOT_ACCEPTED',
      responseCode: null,
      command: null,
      message: 'the message lookup has no message with this Message-ID: it is sent again',
      permanent: false,
      outcomeUnknown: false,
      resolvedBy: 'message_lookup',
      at: now().toISOString(),
    });
  }

  // Past every attempt number in the log (attempts recorded before intents existed included).
  const attempt =
    Math.max(
      0,
      ...history.map((event) => {
        const number = (event.data as { attempt?: unknown }).attempt;
        return typeof number === 'number' ? number : 0;
      }),
    ) + 1;
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

  const sending = { attempt, to, messageId, linkExpiresAt: expiresAt.toISOString(), at: at.toISOString() };
  const claimed = await claimBuyerEmailAttempt(database, {
    documentId: document.id,
    event: { type: BUYER_EMAIL_EVENT_TYPES.INTENT, data: sending, at },
  });
  if (!claimed) return { documentId, outcome: 'claim_lost', attempt };

  try {
    await sendSmtpMessage(
      options.transport,
      {
        from: options.from,
        to,
        ...(document.tenant.fiscalEmail ? { replyTo: document.tenant.fiscalEmail } : {}),
        subject: message.subject,
        text: message.text,
        html: message.html,
        messageId,
      },
      options.smtpTimeoutMs ?? DEFAULT_SMTP_TIMEOUT_MS,
    );
  } catch (error) {
    const secrets = [options.transport.auth?.pass, options.transport.auth?.user, options.linkSecret].filter(
      (secret): secret is string => typeof secret === 'string',
    );
    const failure = describeSmtpError(error, secrets);
    await recordEvent(database, document, BUYER_EMAIL_EVENT_TYPES.FAILED, {
      attempt,
      ...failure,
      at: now().toISOString(),
    });
    if (failure.outcomeUnknown && options.lookupMessage === undefined)
      return recordUncertain(options, document, {
        attempt,
        to,
        messageId,
        reason: `the SMTP exchange broke inside the transaction (${failure.message}) and no message lookup is configured`,
      });
    if (failure.permanent) return { documentId, outcome: 'failed_permanently', attempt };
    // Retried by pg-boss; an unknown outcome is looked up first (see openAttemptOf).
    throw new BuyerEmailError(
      `buyer e-mail of ${document.encf} (attempt ${attempt}) failed: ${failure.message}`,
    );
  }
  await recordEvent(database, document, BUYER_EMAIL_EVENT_TYPES.SENT, {
    ...sending,
    at: now().toISOString(),
  });
  return { documentId, outcome: 'sent', attempt };
}

/**
 * The last attempt, when its outcome is not known: an intent with no outcome after it (a run that
 * died), or whose last outcome is a failure inside the SMTP transaction (`outcomeUnknown`).
 */
function openAttemptOf(history: TBuyerEmailDocument['history']): TOpenAttempt | undefined {
  const intents = history.filter((event) => event.type === BUYER_EMAIL_EVENT_TYPES.INTENT);
  const last = intents.at(-1);
  if (last === undefined) return undefined;
  const data = last.data as { attempt?: unknown; at?: unknown; messageId?: unknown; linkExpiresAt?: unknown };
  if (typeof data.attempt !== 'number') return undefined;
  const outcome = history
    .filter(
      (event) =>
        event.type === BUYER_EMAIL_EVENT_TYPES.FAILED &&
        (event.data as { attempt?: unknown }).attempt === data.attempt,
    )
    .at(-1);
  if (outcome !== undefined && (outcome.data as { outcomeUnknown?: unknown }).outcomeUnknown !== true)
    return undefined;
  return {
    attempt: data.attempt,
    at: typeof data.at === 'string' ? new Date(data.at) : last.createdAt,
    messageId: typeof data.messageId === 'string' ? data.messageId : undefined,
    linkExpiresAt: data.linkExpiresAt ?? null,
  };
}

/**
 * No lookup can tell whether the server took the attempt: recorded `buyer_email_uncertain` with an
 * operator notification (once per document, in one statement), never resent.
 */
async function recordUncertain(
  options: TBuyerEmailOptions & { database: TDatabase },
  document: TBuyerEmailDocument,
  uncertain: { attempt: number; to: string; messageId: string; reason: string },
): Promise<TBuyerEmailReport> {
  const { database } = options;
  const at = (options.now ?? (() => new Date()))();
  const kind = BUYER_EMAIL_UNCERTAIN_NOTIFICATION_KIND;
  const data = {
    encf: document.encf,
    environment: document.environment,
    ...uncertain,
    message: `The buyer e-mail of e-CF ${document.encf} (${document.environment}) may or may not have reached the SMTP server (${uncertain.messageId}); it is not resent. Check the provider's log, or configure SMTP_MESSAGE_LOOKUP_URL.`,
  };
  await recordOperatorNotification(database, {
    kind,
    document,
    data,
    at,
    event: { type: BUYER_EMAIL_EVENT_TYPES.UNCERTAIN, data: { ...uncertain, at: at.toISOString() }, at },
  });
  const pending = await findUnsentOperatorNotification(database, { kind, documentId: document.id });
  let notification: TOperatorNotification | undefined;
  if (pending !== null) {
    await options.notifyOperator?.(pending);
    if (await markOperatorNotificationSent(database, { id: pending.id, at })) notification = pending;
  }
  return {
    documentId: document.id,
    outcome: 'uncertain',
    attempt: uncertain.attempt,
    ...(notification === undefined ? {} : { notification }),
  };
}

async function recordEvent(
  database: TDatabase,
  document: { id: string },
  type: string,
  data: Record<string, unknown>,
): Promise<void> {
  const at = typeof data['at'] === 'string' ? new Date(data['at']) : new Date();
  await appendDocumentEvents(sqlPoolOf(database), { documentId: document.id, events: [{ type, data, at }] });
}
