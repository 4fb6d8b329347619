/**
 * Crash safety of the buyer e-mail, with the real worker process and the real mail catcher: the
 * worker is SIGKILLed again and again while it sends buyer e-mails to a slow SMTP server (the
 * message is accepted at the end of DATA, its `250` answer comes later, so kills land before the
 * server took a message, and after it took it but before the worker learnt it). Each
 * (document, recipient) reaches the catcher at most once; with the message lookup configured,
 * exactly once, every e-mail recorded sent; without it, the attempts a kill left without outcome
 * are recorded uncertain (an operator is told) and never resent.
 *
 * A killed worker's e-mail jobs come back when pg-boss fails them for their lapsed lease (the
 * heartbeat, 10 s; its supervise pass shortened to 1 s here) and retries them (1 s here).
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes, randomInt } from 'node:crypto';
import { PgBoss } from 'pg-boss';
import { JOB_QUEUE_SCHEMA, seedTenant } from '@ecf/db';
import { createEnqueue } from '@ecf/db/job-queue';
import { createTestDatabase, openTestDatabase } from '@ecf/db/testing';
import { createTestCertificate } from '@ecf/fiscal-core';
import { startMailCatcher } from '@ecf/mail-catcher';
import { createCertificateKeyring, issueDocument, storeTenantCertificate } from '@ecf/services';
import { startSimulator } from '@ecf/taxauth-sim';
import { loadXsdValidators, OFFICIAL_XSD_DIRECTORY } from '@ecf/config';
import { startWorkerProcess, waitUntil, type TWorkerProcess } from '../test/worker-process.ts';

const XSD_DIRECTORY = OFFICIAL_XSD_DIRECTORY;
const DOCUMENTS = 24;
const KILLS = 5;
/** The slow SMTP server: how long after accepting a message it answers `250`. */
const ACCEPT_DELAY_MS = 500;

let simulatorDatabase: Awaited<ReturnType<typeof createTestDatabase>>;
let simulator: Awaited<ReturnType<typeof startSimulator>>;
const masterKey = randomBytes(32).toString('base64');

before(async () => {
  simulatorDatabase = await createTestDatabase({ migrated: false });
  simulator = await startSimulator({
    databaseUrl: simulatorDatabase.url,
    xsdDirectory: XSD_DIRECTORY,
    logLevel: 'silent',
    processingDelayMs: 100,
    port: 0,
  });
});
after(async () => {
  await simulator.close();
  await simulatorDatabase.drop();
});

/** One run: its own database and catcher, documents issued as the API does, the worker killed `KILLS` times. */
async function runWithKills(options: { lookup: boolean }) {
  const context = await openTestDatabase();
  const catcher = await startMailCatcher({ smtpPort: 0, httpPort: 0, acceptDelayMs: ACCEPT_DELAY_MS });
  const boss = new PgBoss({
    connectionString: context.url,
    schema: JOB_QUEUE_SCHEMA,
    supervise: false,
    schedule: false,
  });
  boss.on('error', () => {});
  await boss.start();
  const database = context.database;
  const startWorker = (): TWorkerProcess =>
    startWorkerProcess({
      DATABASE_URL: context.url,
      CERTIFICATE_MASTER_KEY: masterKey,
      XSD_DIRECTORY,
      TAXAUTH_ECF_BASE_URL: simulator.baseUrl,
      TAXAUTH_FC_BASE_URL: simulator.baseUrl,
      TAXAUTH_STATUS_BASE_URL: simulator.baseUrl,
      TAXAUTH_TIMEOUT_MS: '3000',
      WORKER_TRANSMIT_IN_FLIGHT_MS: '9000',
      WORKER_CONCURRENCY: '2',
      WORKER_SUPERVISE_INTERVAL_SECONDS: '1',
      WORKER_JOB_RETRY_DELAY_SECONDS: '1',
      SMTP_HOST: '127.0.0.1',
      SMTP_PORT: String(catcher.smtpPort),
      SMTP_TIMEOUT_MS: '1000',
      WORKER_EMAIL_IN_FLIGHT_MS: '2000',
      MAIL_FROM: 'Facturación electrónica <no-reply@ecf.test>',
      ...(options.lookup
        ? {
            SMTP_MESSAGE_LOOKUP_URL: `http://127.0.0.1:${catcher.httpPort}/api/messages/by-message-id/{messageId}`,
          }
        : {}),
    });
  const eventCount = async (types: string[]) => {
    const [row] = await database.$queryRaw<Array<{ count: bigint }>>`
      SELECT count(*) AS count FROM document_events WHERE type = ANY(${types}::text[])`;
    return Number(row?.count ?? 0);
  };
  /** Intents whose outcome is not recorded: a message may be on its way right now. */
  const openIntents = async () =>
    (await eventCount(['buyer_email_intent'])) -
    (await eventCount(['buyer_email_sent', 'buyer_email_failed']));
  const settled = async () => {
    const [row] = await database.$queryRaw<Array<{ count: bigint }>>`
      SELECT count(DISTINCT document_id) AS count FROM document_events
      WHERE type IN ('buyer_email_sent', 'buyer_email_uncertain', 'buyer_email_failed') AND (type <> 'buyer_email_failed' OR (data->>'permanent')::boolean)`;
    return Number(row?.count ?? 0);
  };

  let worker = startWorker();
  try {
    const tenantRow = await seedTenant(database);
    await database.tenant.update({
      where: { id: tenantRow.id },
      data: { buyerEmailEnvironments: ['TesteCF'] },
    });
    const certificate = createTestCertificate({ rnc: tenantRow.rnc, commonName: 'Firmante de prueba' });
    await storeTenantCertificate({
      database,
      keyring: createCertificateKeyring({ currentKey: masterKey }),
      tenantId: tenantRow.id,
      p12: certificate.p12,
      password: certificate.password,
    });
    const tenant = await database.tenant.findUniqueOrThrow({ where: { id: tenantRow.id } });
    // The queues (their lease) exist before the documents' jobs are sent.
    assert.ok(
      await waitUntil(async () => {
        const rows = await database.$queryRaw<Array<{ heartbeat: number | null }>>`
          SELECT heartbeat_seconds AS heartbeat FROM pgboss.queue WHERE name = 'document.email-buyer'`;
        return rows[0]?.heartbeat === 10;
      }, 20_000),
      `the worker did not set up its queues:\n${worker.output()}`,
    );
    const xsd = await loadXsdValidators(XSD_DIRECTORY);
    const enqueue = createEnqueue(() => boss);
    const encfs: string[] = [];
    const base = randomInt(1, 1_000_000_000);
    for (let index = 0; index < DOCUMENTS; index += 1) {
      const encf = `E31${String(base + index).padStart(10, '0')}`;
      encfs.push(encf);
      const body = {
        type: 'E31',
        encf,
        sequenceExpirationDate: '31-12-2027',
        issueDate: '2026-04-01',
        buyer: {
          rnc: '101672919',
          name: 'Ferretería Los Pinos SRL',
          email: `compras+${index}@lospinos.com.do`,
        },
        paymentType: 'card',
        incomeType: '01',
        lines: [
          {
            name: 'Cemento gris 42.5 kg',
            quantity: 10,
            unitPrice: '450.00',
            itbisRate: 18,
            itemKind: 'good',
          },
        ],
      };
      await issueDocument({
        database,
        tenant,
        environment: 'TesteCF',
        xsd,
        now: new Date('2026-04-01T14:15:00Z'),
        rawBody: JSON.stringify(body),
        body,
        enqueue,
      });
    }
    xsd.dispose();

    const kills: Array<{ phase: 'before_acceptance' | 'after_acceptance'; openIntents: number }> = [];
    for (let kill = 0; kill < KILLS; kill += 1) {
      // Only while a message is on its way, seen from the server: alternately while the SMTP
      // dialogue runs (before the server took the message), and once the server has just taken a
      // message it has not answered yet (it answers ACCEPT_DELAY_MS later).
      const phase = kill % 2 === 0 ? 'before_acceptance' : 'after_acceptance';
      const caught = catcher.messages().length;
      const landed = await waitUntil(
        async () =>
          phase === 'before_acceptance'
            ? catcher.sessionsBeforeAcceptance() > 0
            : catcher.messages().length > caught,
        20_000,
      );
      if (worker.child.exitCode !== null)
        throw new Error(`the worker exited on its own (${worker.child.exitCode}):\n${worker.output()}`);
      if (!landed) break;
      kills.push({ phase, openIntents: await openIntents() });
      worker.child.kill('SIGKILL');
      await worker.exited;
      worker = startWorker();
    }
    const finished = await waitUntil(async () => (await settled()) === DOCUMENTS, 90_000);
    assert.ok(finished, `not every e-mail settled (${await settled()} of ${DOCUMENTS}):\n${worker.output()}`);

    const delivered = new Map(encfs.map((encf) => [encf, 0]));
    for (const message of catcher.messages())
      for (const encf of encfs)
        if (message.subject.includes(encf)) delivered.set(encf, (delivered.get(encf) ?? 0) + 1);
    const outcomes = await database.$queryRaw<
      Array<{ encf: string; type: string; resolved_by: string | null }>
    >`
      SELECT d.encf, e.type, e.data->>'resolvedBy' AS resolved_by FROM document_events e JOIN documents d ON d.id = e.document_id
      WHERE e.type IN ('buyer_email_sent', 'buyer_email_uncertain') ORDER BY e.id`;
    return { kills, delivered, outcomes, encfs };
  } finally {
    worker.child.kill('SIGTERM');
    await worker.exited;
    await boss.stop({ graceful: false, close: true });
    await catcher.close();
    await context.close();
  }
}

test(
  'SIGKILL while sending buyer e-mails, with the message lookup: every (document, recipient) reaches the SMTP server exactly once',
  { timeout: 240_000 },
  async (t) => {
    const { kills, delivered, outcomes, encfs } = await runWithKills({ lookup: true });
    const found = outcomes.filter((outcome) => outcome.resolved_by === 'message_lookup').length;
    t.diagnostic(
      `kills with messages on their way: ${JSON.stringify(kills)}; sent found by the lookup: ${found}`,
    );
    assert.ok(kills.length >= 3, `only ${kills.length} kills landed while messages were on their way`);
    assert.deepEqual(
      [...delivered].filter(([, count]) => count !== 1),
      [],
      'each e-mail reached the catcher exactly once',
    );
    // The case a resend would duplicate happened: the server had a message the worker never recorded.
    assert.ok(
      found > 0,
      'a kill landed after the server accepted a message and before the worker recorded it',
    );
    assert.deepEqual(
      outcomes.map((outcome) => outcome.type).sort(),
      encfs.map(() => 'buyer_email_sent'),
      'every e-mail is recorded sent once, none uncertain',
    );
  },
);

test(
  'SIGKILL while sending buyer e-mails, without a lookup: at most once; what a kill left unknown is recorded uncertain, not resent',
  { timeout: 240_000 },
  async (t) => {
    const { kills, delivered, outcomes, encfs } = await runWithKills({ lookup: false });
    const uncertain = outcomes
      .filter((outcome) => outcome.type === 'buyer_email_uncertain')
      .map((o) => o.encf);
    t.diagnostic(
      `kills with messages on their way: ${JSON.stringify(kills)}; uncertain: ${uncertain.length}, of which delivered: ${uncertain.filter((encf) => delivered.get(encf) === 1).length}`,
    );
    assert.ok(kills.length >= 3, `only ${kills.length} kills landed while messages were on their way`);
    assert.deepEqual(
      [...delivered].filter(([, count]) => count > 1),
      [],
      'no e-mail reached the catcher twice',
    );
    assert.equal(outcomes.length, encfs.length, 'one final record per e-mail');
    for (const outcome of outcomes)
      if (outcome.type === 'buyer_email_sent') assert.equal(delivered.get(outcome.encf), 1, outcome.encf);
    assert.ok(uncertain.length > 0, 'a kill left an attempt without outcome');
    assert.ok(
      uncertain.some((encf) => delivered.get(encf) === 1),
      'a kill landed after the server accepted a message (uncertain, delivered once, not resent)',
    );
  },
);
