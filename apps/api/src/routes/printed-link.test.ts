import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startMailCatcher, type TCaughtMessage, type TMailCatcher } from '@ecf/mail-catcher';
import {
  BUYER_EMAIL_EVENT_TYPES,
  createRiLinkToken,
  sendBuyerEmail,
  type TBuyerEmailOptions,
} from '@ecf/services';
import { seedTenantWithKey, startTestApi, type TTestApi } from '../../test/test-api.ts';
import { pdfText, seedPrintableDocument } from '../../test/printed-documents.ts';

const LINK_SECRET = 'test-ri-link-secret-0123456789abcdef-0123456789';
const PUBLIC_BASE_URL = 'http://ecf.test';
let api: TTestApi;
let catcher: TMailCatcher;

before(async () => {
  api = await startTestApi({ RI_LINK_SECRET: LINK_SECRET });
  catcher = await startMailCatcher({ smtpPort: 0, httpPort: 0 });
});
after(async () => {
  await catcher.close();
  await api.close();
});

function emailOptions(overrides: Partial<TBuyerEmailOptions> = {}): TBuyerEmailOptions {
  return {
    transport: { host: '127.0.0.1', port: catcher.smtpPort, secure: false, ignoreTLS: true },
    from: 'Facturación electrónica <no-reply@ecf.test>',
    publicBaseUrl: PUBLIC_BASE_URL,
    linkSecret: LINK_SECRET,
    ...overrides,
  };
}

async function enabledTenant(environments: Array<'TesteCF' | 'CerteCF' | 'eCF'> = ['TesteCF']) {
  const { tenant } = await seedTenantWithKey(api.database);
  await api.database.tenant.update({
    where: { id: tenant.id },
    data: { buyerEmailEnvironments: environments },
  });
  return tenant;
}

/** The `/ri/...` path of the link in the message's text body. */
function linkPathOf(message: TCaughtMessage): string {
  const match = new RegExp(`${PUBLIC_BASE_URL.replace(/\./g, '\\.')}(/ri/[A-Za-z0-9_.-]+)`).exec(
    message.text ?? '',
  );
  assert.ok(match?.[1], `no link in ${message.text}`);
  return match[1];
}

const open = (path: string) => api.app.inject({ method: 'GET', url: path });

function assertPlainTextRefusal(
  response: Awaited<ReturnType<typeof open>>,
  status: number,
  code: string,
): void {
  assert.equal(response.statusCode, status, response.body);
  assert.equal(response.headers['x-error-code'], code);
  assert.match(String(response.headers['content-type']), /^text\/plain/);
  assert.ok(response.body.includes(code));
}

test('an accepted e-CF with a buyer e-mail: the message reaches a real SMTP server and its link serves the PDF', async () => {
  const tenant = await enabledTenant();
  const printable = await seedPrintableDocument(api.database, tenant.id, {
    status: 'accepted',
    buyerEmail: 'compras@lospinos.com.do',
  });
  const report = await sendBuyerEmail({
    database: api.database,
    documentId: printable.document.id,
    ...emailOptions(),
  });
  assert.deepEqual(report, { documentId: printable.document.id, outcome: 'sent', attempt: 1 });

  const message = await catcher.waitForMessage(
    (candidate) => candidate.subject.includes(printable.document.encf),
    5000,
  );
  assert.deepEqual(message.envelopeTo, ['compras@lospinos.com.do']);
  // The issuer as the signed e-CF names it (NombreComercial, else RazonSocialEmisor).
  assert.equal(
    message.subject,
    `Factura de Crédito Fiscal Electrónica ${printable.document.encf} de ${tenant.legalName}`,
  );
  assert.match(message.text ?? '', /RD\$ 7,080\.00/);
  assert.match(message.text ?? '', /ambiente TesteCF/);
  const path = linkPathOf(message);
  assert.ok(path.length - '/ri/'.length <= 1300);
  assert.ok(message.html?.includes(`${PUBLIC_BASE_URL}${path}`), 'the HTML part carries the same link');

  const response = await open(path);
  assert.equal(response.statusCode, 200, response.body.slice(0, 200));
  assert.equal(response.headers['content-type'], 'application/pdf');
  assert.equal(response.headers['referrer-policy'], 'no-referrer');
  const text = await pdfText(response.rawPayload);
  assert.ok(text.includes(printable.document.encf));
  assert.ok(text.includes(printable.securityCode));

  const events = await api.database.documentEvent.findMany({
    where: { documentId: printable.document.id, type: { startsWith: 'buyer_email' } },
    orderBy: { id: 'asc' },
  });
  // The intent (with its Message-ID) is recorded before the SMTP transaction, the outcome after it.
  assert.deepEqual(
    events.map((event) => [event.type, (event.data as { attempt: number }).attempt]),
    [
      [BUYER_EMAIL_EVENT_TYPES.INTENT, 1],
      [BUYER_EMAIL_EVENT_TYPES.SENT, 1],
    ],
  );
  // Once: a redelivered job does not e-mail twice.
  const before = catcher.messages().length;
  assert.equal(
    (await sendBuyerEmail({ database: api.database, documentId: printable.document.id, ...emailOptions() }))
      .outcome,
    'already_sent',
  );
  assert.equal(catcher.messages().length, before);
});

test('the link: 410 RI_LINK_EXPIRED after 30 days (injected clock), 404 RI_LINK_INVALID when tampered, plain text', async () => {
  const tenant = await enabledTenant();
  const printable = await seedPrintableDocument(api.database, tenant.id, { status: 'accepted_conditional' });
  const day = 24 * 3600_000;
  // Sent 30 days and a minute ago: expired now.
  await sendBuyerEmail({
    database: api.database,
    documentId: printable.document.id,
    ...emailOptions({ now: () => new Date(Date.now() - 30 * day - 60_000) }),
  });
  const message = await catcher.waitForMessage(
    (candidate) => candidate.subject.includes(printable.document.encf),
    5000,
  );
  assertPlainTextRefusal(await open(linkPathOf(message)), 410, 'RI_LINK_EXPIRED');
  // 29 days after sending it still opens.
  const fresh = createRiLinkToken(
    { documentId: printable.document.id, environment: 'TesteCF', issuedAt: new Date(Date.now() - 29 * day) },
    LINK_SECRET,
  );
  assert.equal((await open(`/ri/${fresh.token}`)).statusCode, 200);

  const [payload = '', signature = ''] = fresh.token.split('.');
  const flip = (text: string, index: number) =>
    `${text.slice(0, index)}${text[index] === 'A' ? 'B' : 'A'}${text.slice(index + 1)}`;
  const forged = createRiLinkToken(
    { documentId: printable.document.id, environment: 'TesteCF', issuedAt: new Date() },
    'another-secret-0123456789abcdef-0123456789',
  );
  const expiredForgery = createRiLinkToken(
    { documentId: printable.document.id, environment: 'TesteCF', issuedAt: new Date(Date.now() - 40 * day) },
    'another-secret-0123456789abcdef-0123456789',
  );
  const otherEnvironment = createRiLinkToken(
    { documentId: printable.document.id, environment: 'eCF', issuedAt: new Date() },
    LINK_SECRET,
  );
  const unknownDocument = createRiLinkToken(
    { documentId: '00000000-0000-4000-8000-000000000000', environment: 'TesteCF', issuedAt: new Date() },
    LINK_SECRET,
  );
  for (const token of [
    `${flip(payload, 5)}.${signature}`,
    `${payload}.${flip(signature, 10)}`,
    `${payload}.${signature}x`,
    forged.token,
    expiredForgery.token,
    otherEnvironment.token,
    unknownDocument.token,
    'not-a-token',
    'x'.repeat(1300),
    `${'a'.repeat(600)}.${'b'.repeat(600)}`,
  ]) {
    assertPlainTextRefusal(await open(`/ri/${token}`), 404, 'RI_LINK_INVALID');
  }
  assertPlainTextRefusal(await open('/ri/'), 404, 'RI_LINK_INVALID');
  // Beyond the spec's 1,300 characters a token cannot be ours: an invalid link, never a 414 or a 500.
  const overlong = await open(`/ri/${'x'.repeat(1301)}`);
  assert.equal(overlong.statusCode, 404);
  assert.equal(overlong.headers['x-error-code'], 'RI_LINK_INVALID');
});

test('the link answers 404 RI_NOT_DELIVERABLE once the e-CF is no longer accepted', async () => {
  const tenant = await enabledTenant();
  for (const status of ['rejected', 'cancelled', 'contingency'] as const) {
    const printable = await seedPrintableDocument(api.database, tenant.id, { status: 'accepted' });
    const { token } = createRiLinkToken(
      { documentId: printable.document.id, environment: 'TesteCF', issuedAt: new Date() },
      LINK_SECRET,
    );
    assert.equal((await open(`/ri/${token}`)).statusCode, 200);
    await api.database.document.update({ where: { id: printable.document.id }, data: { status } });
    assertPlainTextRefusal(await open(`/ri/${token}`), 404, 'RI_NOT_DELIVERABLE');
  }
});

test('SMTP down: the attempt fails and is logged (no credentials), the document is untouched; the retry sends', async () => {
  const tenant = await enabledTenant();
  const printable = await seedPrintableDocument(api.database, tenant.id, { status: 'accepted' });
  const down = await startMailCatcher({ smtpPort: 0, httpPort: 0 });
  const port = down.smtpPort;
  await down.close();
  const password = 'smtp-password-never-logged-4711';
  const options = emailOptions({
    transport: {
      host: '127.0.0.1',
      port,
      secure: false,
      ignoreTLS: true,
      auth: { user: 'ecf', pass: password },
      connectionTimeout: 2000,
    },
  });
  const before = await api.database.document.findUniqueOrThrow({ where: { id: printable.document.id } });
  await assert.rejects(
    sendBuyerEmail({ database: api.database, documentId: printable.document.id, ...options }),
    /attempt 1\) failed/,
  );
  await assert.rejects(
    sendBuyerEmail({ database: api.database, documentId: printable.document.id, ...options }),
    /attempt 2\) failed/,
  );
  const after = await api.database.document.findUniqueOrThrow({ where: { id: printable.document.id } });
  assert.equal(after.status, 'accepted');
  assert.deepEqual(after.updatedAt, before.updatedAt);
  const failures = await api.database.documentEvent.findMany({
    where: { documentId: printable.document.id, type: BUYER_EMAIL_EVENT_TYPES.FAILED },
    orderBy: { id: 'asc' },
  });
  assert.deepEqual(
    failures.map((event) => (event.data as { attempt: number }).attempt),
    [1, 2],
  );
  const data = failures[0]?.data as { code: string; message: string; permanent: boolean };
  assert.equal(data.permanent, false);
  assert.match(data.message, /ECONNREFUSED|connect/i);
  assert.ok(!JSON.stringify(failures.map((event) => event.data)).includes(password));
  assert.ok(!JSON.stringify(failures.map((event) => event.data)).includes(LINK_SECRET));

  const up = await startMailCatcher({ smtpPort: port, httpPort: 0 });
  try {
    const sent = await sendBuyerEmail({
      database: api.database,
      documentId: printable.document.id,
      ...emailOptions({ transport: { host: '127.0.0.1', port, secure: false, ignoreTLS: true } }),
    });
    assert.deepEqual(sent, { documentId: printable.document.id, outcome: 'sent', attempt: 3 });
    await up.waitForMessage((message) => message.subject.includes(printable.document.encf), 5000);
  } finally {
    await up.close();
  }
});

test('nothing is sent when the account did not enable the environment, without a buyer e-mail, or before acceptance', async () => {
  const disabled = await enabledTenant(['CerteCF']);
  const enabled = await enabledTenant(['TesteCF']);
  const cases = [
    [await seedPrintableDocument(api.database, disabled.id, { status: 'accepted' }), 'not_enabled'],
    [
      await seedPrintableDocument(api.database, enabled.id, { status: 'accepted', buyerEmail: null }),
      'no_buyer_email',
    ],
    [await seedPrintableDocument(api.database, enabled.id, { status: 'sent' }), 'not_deliverable'],
    [await seedPrintableDocument(api.database, enabled.id, { status: 'rejected' }), 'not_deliverable'],
  ] as const;
  const before = catcher.messages().length;
  for (const [printable, outcome] of cases) {
    assert.equal(
      (await sendBuyerEmail({ database: api.database, documentId: printable.document.id, ...emailOptions() }))
        .outcome,
      outcome,
    );
    assert.equal(
      await api.database.documentEvent.count({
        where: { documentId: printable.document.id, type: { startsWith: 'buyer_email' } },
      }),
      0,
    );
  }
  await assert.rejects(
    catcher.waitForMessage(
      (message) => cases.some(([printable]) => message.subject.includes(printable.document.encf)),
      300,
    ),
  );
  assert.equal(catcher.messages().length, before);
});
