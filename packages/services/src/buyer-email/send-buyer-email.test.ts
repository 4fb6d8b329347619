// At most once towards the SMTP server (see send-buyer-email.ts): the intent before the SMTP
// transaction, the outcome after, the Message-ID stable per document and recipient, and a check
// (the message lookup) before anything whose outcome is unknown is resent. Against the real mail
// catcher (SMTP, and its lookup by Message-ID over HTTP).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import nodemailer from 'nodemailer';
import { artifactData, seedDocument, seedTenant } from '@ecf/db';
import { openTestDatabase } from '@ecf/db/testing';
import { startMailCatcher, type TMailCatcher } from '@ecf/mail-catcher';
import { buildEcfXml, createClock, newEncf } from '../../test/transmission-harness.ts';
import { claimBuyerEmailAttempt } from '../persistence/index.ts';
import {
  BUYER_EMAIL_EVENT_TYPES,
  buyerEmailMessageIdOf,
  type TBuyerEmailOptions,
} from './buyer-email-rules.ts';
import { createHttpMessageLookup } from './message-lookup.ts';
import { sendBuyerEmail } from './send-buyer-email.ts';
import { BuyerEmailError } from './buyer-email-rules.ts';

const BUYER = 'compras@lospinos.com.do';
const FROM = 'Facturación electrónica <no-reply@ecf.test>';

let context: Awaited<ReturnType<typeof openTestDatabase>>;
let catcher: TMailCatcher;
let tenant: { id: string; rnc: string };
const clock = createClock();
const notifications: unknown[] = [];

before(async () => {
  context = await openTestDatabase();
  catcher = await startMailCatcher({ smtpPort: 0, httpPort: 0 });
  tenant = await seedTenant(context.database);
  await context.database.tenant.update({
    where: { id: tenant.id },
    data: { buyerEmailEnvironments: ['TesteCF'] },
  });
});
after(async () => {
  await catcher.close();
  await context.close();
});

/** An accepted e-CF whose signed XML names the buyer's e-mail. */
async function acceptedDocument() {
  const encf = newEncf('31');
  const document = await seedDocument(context.database, { tenantId: tenant.id, encf, status: 'accepted' });
  const xml = buildEcfXml({ rnc: tenant.rnc, encf }).replace(
    '</RazonSocialComprador>',
    `</RazonSocialComprador><CorreoComprador>${BUYER}</CorreoComprador>`,
  );
  await context.database.artifact.create({
    data: artifactData({
      tenantId: tenant.id,
      documentId: document.id,
      kind: 'signed_xml',
      contentType: 'application/xml',
      content: xml,
    }),
  });
  return {
    ...document,
    messageId: buyerEmailMessageIdOf({ documentId: document.id, recipient: BUYER, from: FROM }),
  };
}

function lookupOf(server: TMailCatcher) {
  return createHttpMessageLookup({
    urlTemplate: `http://127.0.0.1:${server.httpPort}/api/messages/by-message-id/{messageId}`,
  });
}

function settings(server: TMailCatcher, overrides: Partial<TBuyerEmailOptions> = {}) {
  return {
    transport: { host: '127.0.0.1', port: server.smtpPort, secure: false, ignoreTLS: true },
    from: FROM,
    publicBaseUrl: 'http://127.0.0.1:3000',
    linkSecret: 'services-test-ri-link-secret-0123456789abcdef',
    smtpTimeoutMs: 1000,
    inFlightMs: 2000,
    now: clock.now,
    notifyOperator: (notification: unknown) => {
      notifications.push(notification);
    },
    database: context.database,
    ...overrides,
  };
}

async function emailEvents(documentId: string) {
  const events = await context.database.documentEvent.findMany({
    where: { documentId, type: { startsWith: 'buyer_email' } },
    orderBy: { id: 'asc' },
  });
  return events.map((event) => {
    const data = event.data as { attempt?: number; resolvedBy?: string; outcomeUnknown?: boolean };
    return [
      event.type,
      data.attempt,
      ...(data.resolvedBy === undefined ? [] : [data.resolvedBy]),
      ...(data.outcomeUnknown === true ? ['outcomeUnknown'] : []),
    ];
  });
}

/** What a worker killed right after the SMTP server accepted the message left: the intent, no outcome. */
async function intentWithoutOutcome(document: { id: string; messageId: string }, deliver: boolean) {
  const at = clock.now();
  assert.ok(
    await claimBuyerEmailAttempt(context.database, {
      documentId: document.id,
      event: {
        type: BUYER_EMAIL_EVENT_TYPES.INTENT,
        data: {
          attempt: 1,
          to: BUYER,
          messageId: document.messageId,
          linkExpiresAt: null,
          at: at.toISOString(),
        },
        at,
      },
    }),
  );
  if (deliver)
    await nodemailer
      .createTransport({ host: '127.0.0.1', port: catcher.smtpPort, secure: false, ignoreTLS: true })
      .sendMail({ from: FROM, to: BUYER, subject: 'killed', text: 'killed', messageId: document.messageId });
}

test('sent once: the intent before the SMTP transaction, the outcome after, one stable Message-ID; a rerun sends nothing', async () => {
  const document = await acceptedDocument();
  const report = await sendBuyerEmail({ ...settings(catcher), documentId: document.id });
  assert.deepEqual([report.outcome, report.attempt], ['sent', 1]);
  assert.deepEqual(await emailEvents(document.id), [
    [BUYER_EMAIL_EVENT_TYPES.INTENT, 1],
    [BUYER_EMAIL_EVENT_TYPES.SENT, 1],
  ]);
  const message = await catcher.waitForMessage(
    (candidate) => candidate.subject.includes(document.encf),
    5000,
  );
  assert.equal(message.headers.get('message-id'), document.messageId);
  assert.match(document.messageId, /^<buyer-email\.[0-9a-f-]{36}\.[0-9a-f]{16}@ecf\.test>$/);
  assert.equal(
    (await sendBuyerEmail({ ...settings(catcher), documentId: document.id })).outcome,
    'already_sent',
  );
  assert.equal(catcher.findByMessageId(document.messageId)?.count, 1);
});

test('killed after the server accepted it, before the outcome was recorded: the lookup finds it, recorded sent, not resent', async () => {
  const document = await acceptedDocument();
  await intentWithoutOutcome(document, true);
  const options = { ...settings(catcher, { lookupMessage: lookupOf(catcher) }), documentId: document.id };
  // The attempt may still be running in another process for a while: nothing is decided yet.
  const early = await sendBuyerEmail(options);
  assert.deepEqual([early.outcome, early.retryAfterSeconds], ['in_flight', 2]);
  clock.advanceSeconds(3);
  const report = await sendBuyerEmail(options);
  assert.deepEqual([report.outcome, report.attempt, report.resolvedBy], ['sent', 1, 'message_lookup']);
  assert.deepEqual(await emailEvents(document.id), [
    [BUYER_EMAIL_EVENT_TYPES.INTENT, 1],
    [BUYER_EMAIL_EVENT_TYPES.SENT, 1, 'message_lookup'],
  ]);
  assert.equal(catcher.findByMessageId(document.messageId)?.count, 1);
});

test('killed before the server took it: the lookup finds nothing, sent again under the same Message-ID, once', async () => {
  const document = await acceptedDocument();
  await intentWithoutOutcome(document, false);
  clock.advanceSeconds(3);
  const report = await sendBuyerEmail({
    ...settings(catcher, { lookupMessage: lookupOf(catcher) }),
    documentId: document.id,
  });
  assert.deepEqual([report.outcome, report.attempt], ['sent', 2]);
  assert.deepEqual(await emailEvents(document.id), [
    [BUYER_EMAIL_EVENT_TYPES.INTENT, 1],
    [BUYER_EMAIL_EVENT_TYPES.FAILED, 1, 'message_lookup'],
    [BUYER_EMAIL_EVENT_TYPES.INTENT, 2],
    [BUYER_EMAIL_EVENT_TYPES.SENT, 2],
  ]);
  assert.equal(catcher.findByMessageId(document.messageId)?.count, 1);
});

test('without a lookup: an attempt whose outcome is unknown is never resent; recorded uncertain, one operator notification', async () => {
  const document = await acceptedDocument();
  await intentWithoutOutcome(document, true);
  clock.advanceSeconds(3);
  const before = notifications.length;
  const report = await sendBuyerEmail({ ...settings(catcher), documentId: document.id });
  assert.equal(report.outcome, 'uncertain');
  assert.equal(report.notification?.kind, 'buyer_email_uncertain');
  assert.equal(notifications.length, before + 1);
  assert.deepEqual(await emailEvents(document.id), [
    [BUYER_EMAIL_EVENT_TYPES.INTENT, 1],
    [BUYER_EMAIL_EVENT_TYPES.UNCERTAIN, 1],
  ]);
  const again = await sendBuyerEmail({ ...settings(catcher), documentId: document.id });
  assert.deepEqual([again.outcome, again.notification], ['uncertain', undefined]);
  assert.equal(notifications.length, before + 1);
  assert.equal(catcher.findByMessageId(document.messageId)?.count, 1);
  const rows = await context.database.operatorNotification.findMany({ where: { documentId: document.id } });
  assert.equal(rows.length, 1);
  assert.ok(rows[0]?.sentAt);
});

test('the connection breaks inside the SMTP transaction (the answer never comes): outcome unknown; the lookup decides, or it is uncertain', async () => {
  // A server that accepts the message but answers after the client gave up.
  const slow = await startMailCatcher({ smtpPort: 0, httpPort: 0, acceptDelayMs: 3000 });
  try {
    const looked = await acceptedDocument();
    const withLookup = {
      ...settings(slow, { smtpTimeoutMs: 500, lookupMessage: lookupOf(slow) }),
      documentId: looked.id,
    };
    await assert.rejects(sendBuyerEmail(withLookup), BuyerEmailError);
    assert.deepEqual(await emailEvents(looked.id), [
      [BUYER_EMAIL_EVENT_TYPES.INTENT, 1],
      [BUYER_EMAIL_EVENT_TYPES.FAILED, 1, 'outcomeUnknown'],
    ]);
    clock.advanceSeconds(3);
    const found = await sendBuyerEmail(withLookup);
    assert.deepEqual([found.outcome, found.attempt, found.resolvedBy], ['sent', 1, 'message_lookup']);
    assert.equal(slow.findByMessageId(looked.messageId)?.count, 1);

    const blind = await acceptedDocument();
    const report = await sendBuyerEmail({ ...settings(slow, { smtpTimeoutMs: 500 }), documentId: blind.id });
    assert.equal(report.outcome, 'uncertain');
    assert.equal(slow.findByMessageId(blind.messageId)?.count, 1);
  } finally {
    await slow.close();
  }
});

test('a refused connection is a failure the server never saw: retried and sent, lookup or not', async () => {
  const document = await acceptedDocument();
  const down = {
    ...settings(catcher),
    transport: { host: '127.0.0.1', port: 1, secure: false, ignoreTLS: true },
  };
  await assert.rejects(sendBuyerEmail({ ...down, documentId: document.id }), BuyerEmailError);
  const report = await sendBuyerEmail({ ...settings(catcher), documentId: document.id });
  assert.deepEqual([report.outcome, report.attempt], ['sent', 2]);
  assert.deepEqual(await emailEvents(document.id), [
    [BUYER_EMAIL_EVENT_TYPES.INTENT, 1],
    [BUYER_EMAIL_EVENT_TYPES.FAILED, 1],
    [BUYER_EMAIL_EVENT_TYPES.INTENT, 2],
    [BUYER_EMAIL_EVENT_TYPES.SENT, 2],
  ]);
});

test('two runs at once: one claims the attempt and sends, the other does not', async () => {
  const document = await acceptedDocument();
  const reports = await Promise.all([
    sendBuyerEmail({ ...settings(catcher), documentId: document.id }),
    sendBuyerEmail({ ...settings(catcher), documentId: document.id }),
  ]);
  assert.deepEqual(reports.map((report) => report.outcome).sort(), ['claim_lost', 'sent']);
  assert.equal(catcher.findByMessageId(document.messageId)?.count, 1);
});
