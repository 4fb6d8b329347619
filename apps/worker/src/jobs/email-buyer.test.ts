import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startMailCatcher, type TMailCatcher } from '@ecf/mail-catcher';
import { BUYER_EMAIL_EVENT_TYPES, checkRiLinkToken } from '@ecf/services';
import { openPipelineHarness, waitFor, type TPipelineHarness } from '../../test/pipeline-harness.ts';

const LINK_SECRET = 'worker-test-ri-link-secret-0123456789abcdef';

let harness: TPipelineHarness;
let smtpPort: number;
let catcher: TMailCatcher | undefined;

before(async () => {
  // A port with nobody listening yet: the SMTP server is "down" until a test starts the catcher on it.
  const probe = await startMailCatcher({ smtpPort: 0, httpPort: 0 });
  smtpPort = probe.smtpPort;
  await probe.close();
  harness = await openPipelineHarness({
    processingDelayMs: 100,
    xsd: true,
    worker: {
      queueOverrides: { retryDelay: 1 },
      pollingIntervalSeconds: 0.5,
      buyerEmail: {
        transport: {
          host: '127.0.0.1',
          port: smtpPort,
          secure: false,
          ignoreTLS: true,
          connectionTimeout: 2000,
        },
        from: 'Facturación electrónica <no-reply@ecf.test>',
        publicBaseUrl: 'http://127.0.0.1:3000',
        linkSecret: LINK_SECRET,
      },
    },
  });
});
after(async () => {
  await harness.close();
  await catcher?.close();
});

const tenantWithCertificate = (environments: Array<'TesteCF' | 'CerteCF' | 'eCF'>) =>
  harness.tenantWithCertificate(environments);

/** Submits an E31 with a buyer e-mail as the API stores it and starts its pipeline (document.sign). */
async function issue(tenant: { id: string; rnc: string }) {
  const document = await harness.seedQueuedE31(tenant, {
    rnc: '101672919',
    name: 'Ferretería Los Pinos SRL',
    email: 'compras@lospinos.com.do',
  });
  await harness.worker.boss.send('document.sign', { documentId: document.id });
  return document;
}

/** The outcomes of the document's e-mail attempts (each comes after its `buyer_email_intent`). */
const emailEvents = (documentId: string) =>
  harness.database.documentEvent.findMany({
    where: { documentId, type: { in: [BUYER_EMAIL_EVENT_TYPES.SENT, BUYER_EMAIL_EVENT_TYPES.FAILED] } },
    orderBy: { id: 'asc' },
  });

test('through the worker: accepted → document.email-buyer; SMTP down is retried without holding the document; the buyer gets the link', async () => {
  const tenant = await tenantWithCertificate(['TesteCF']);
  const document = await issue(tenant);
  // The fiscal pipeline finishes while the SMTP server is down.
  const accepted = await waitFor(
    () => harness.database.document.findUniqueOrThrow({ where: { id: document.id } }),
    (row) => row.status === 'accepted',
  );
  assert.equal(accepted.status, 'accepted', JSON.stringify(accepted.lastError));
  const failed = await waitFor(
    () => emailEvents(document.id),
    (events) => events.length >= 2,
  );
  assert.ok(failed.length >= 2, 'each failed attempt is in the event log');
  assert.deepEqual(
    failed.slice(0, 2).map((event) => [event.type, (event.data as { attempt: number }).attempt]),
    [
      [BUYER_EMAIL_EVENT_TYPES.FAILED, 1],
      [BUYER_EMAIL_EVENT_TYPES.FAILED, 2],
    ],
  );
  assert.equal(
    (await harness.database.document.findUniqueOrThrow({ where: { id: document.id } })).status,
    'accepted',
  );

  catcher = await startMailCatcher({ smtpPort, httpPort: 0 });
  const message = await catcher.waitForMessage(
    (candidate) => candidate.subject.includes(document.encf),
    30_000,
  );
  assert.deepEqual(message.envelopeTo, ['compras@lospinos.com.do']);
  const token = /http:\/\/127\.0\.0\.1:3000\/ri\/(\S+)/.exec(message.text ?? '')?.[1];
  assert.ok(token, message.text ?? '');
  const check = checkRiLinkToken(token, LINK_SECRET, new Date());
  assert.equal(check.status, 'valid');
  assert.equal(check.status === 'valid' && check.payload.documentId, document.id);
  const events = await waitFor(
    () => emailEvents(document.id),
    (rows) => rows.at(-1)?.type === BUYER_EMAIL_EVENT_TYPES.SENT,
  );
  assert.equal(events.at(-1)?.type, BUYER_EMAIL_EVENT_TYPES.SENT);
  assert.equal((events.at(-1)?.data as { attempt: number }).attempt, events.length);
  // Each attempt's intent was recorded before it: as many intents as outcomes.
  assert.equal(
    await harness.database.documentEvent.count({
      where: { documentId: document.id, type: BUYER_EMAIL_EVENT_TYPES.INTENT },
    }),
    events.length,
  );
});

test('through the worker: an account without buyer e-mail in the environment gets no job and no message', async () => {
  const tenant = await tenantWithCertificate(['CerteCF']);
  const document = await issue(tenant);
  const accepted = await waitFor(
    () => harness.database.document.findUniqueOrThrow({ where: { id: document.id } }),
    (row) => row.status === 'accepted',
  );
  assert.equal(accepted.status, 'accepted');
  const [jobs] = await harness.database.$queryRaw<Array<{ count: bigint }>>`
    SELECT count(*) AS count FROM pgboss.job WHERE name = 'document.email-buyer' AND data->>'documentId' = ${document.id}`;
  assert.equal(Number(jobs?.count), 0);
  assert.deepEqual(await emailEvents(document.id), []);
});
