// The certification outbox (migration 0016's triggers, issue 19): a case created or moved (state or
// step) writes `certification.state_changed` in the same statement, a run that succeeds
// `certification.run_completed`; a failed run announces itself through its case's `failed` state.
// The fan-out turns each row into a direct body that parses; the Partner builder takes each row.
// A run's end and its case's move are one transaction: never seen apart.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { seedTenant, sqlPoolOf, type WebhookEvent } from '@ecf/db';
import { openTestDatabase } from '@ecf/db/testing';
import { loadXsdValidators, OFFICIAL_XSD_DIRECTORY } from '@ecf/config';
import { insertTestEndpoint, recordingEnqueue } from '../../test/webhook-engine.ts';
import {
  ensureOpenCertificationCase,
  finishCertificationRun,
  insertCertificationRun,
} from '../persistence/index.ts';
import { fanOutWebhookEvents } from '../webhooks/fan-out-webhook-events.ts';
import {
  buildPartnerWebhookPayload,
  ZDirectWebhookPayload,
  type TWebhookEventRecord,
} from '../webhooks/payloads.ts';
import { moveCase } from './certification-guards.ts';
import { advanceCertificationRun } from './advance-certification-run.ts';

let context: Awaited<ReturnType<typeof openTestDatabase>>;
before(async () => {
  context = await openTestDatabase();
});
after(async () => {
  await context.close();
});

const TYPES = ['certification.state_changed', 'certification.run_completed'];

function recordOf(event: WebhookEvent): TWebhookEventRecord {
  return {
    id: event.id,
    sequence: String(event.sequence),
    type: event.type,
    tenantId: event.tenantId,
    environment: event.environment,
    documentId: event.documentId,
    episodeId: null,
    data: event.data as Record<string, unknown>,
    createdAt: event.createdAt,
  };
}

test('a case moving step by step, a run that succeeds and one that fails: one event each, in CerteCF, both payloads parse', async () => {
  const tenant = await seedTenant(context.database);
  await insertTestEndpoint(context.database, {
    tenantId: tenant.id,
    environment: 'CerteCF',
    eventTypes: TYPES,
  });
  const now = new Date();
  const { case: opened } = await ensureOpenCertificationCase(context.database, { tenantId: tenant.id });
  await moveCase({
    database: context.database,
    caseId: opened.id,
    now,
    complete: [{ step: 'registered', source: 'set' }],
    resume: true,
  });
  // No change (registered again): no event.
  await moveCase({
    database: context.database,
    caseId: opened.id,
    now,
    complete: [{ step: 'registered', source: 'set' }],
  });
  const run = await insertCertificationRun(context.database, {
    tenantId: tenant.id,
    caseId: opened.id,
    setId: null,
    part: 'data',
    source: 'taxauth_model',
    idempotencyKey: null,
    requestFingerprint: null,
    correlationId: null,
    items: [],
    now,
    enqueue: recordingEnqueue(),
  });
  assert.equal(
    await finishCertificationRun(context.database, { runId: run.id, state: 'succeeded', failure: null, now }),
    true,
  );
  await moveCase({
    database: context.database,
    caseId: opened.id,
    now,
    complete: [{ step: 'data_tests_ecf', source: 'run', reference: run.id }],
  });
  await moveCase({ database: context.database, caseId: opened.id, now, fail: true });

  const events = await context.database.webhookEvent.findMany({
    where: { tenantId: tenant.id },
    orderBy: { sequence: 'asc' },
  });
  assert.deepEqual(
    events.map((event) => [event.type, event.environment]),
    [
      ['certification.state_changed', 'CerteCF'],
      ['certification.state_changed', 'CerteCF'],
      ['certification.run_completed', 'CerteCF'],
      ['certification.state_changed', 'CerteCF'],
      ['certification.state_changed', 'CerteCF'],
    ],
  );
  const steps = events
    .filter((event) => event.type === 'certification.state_changed')
    .map((event) => {
      const data = event.data as { case: { state: string; step: string; fromStep: string | null } };
      return [data.case.state, data.case.step, data.case.fromStep];
    });
  assert.deepEqual(steps, [
    ['in_progress', 'registered', null],
    ['in_progress', 'data_tests_ecf', 'registered'],
    ['in_progress', 'data_tests_commercial_approval', 'data_tests_ecf'],
    ['failed', 'data_tests_commercial_approval', 'data_tests_commercial_approval'],
  ]);

  await fanOutWebhookEvents({
    database: context.database,
    enqueue: recordingEnqueue(),
    now: () => new Date(),
  });
  const deliveries = await context.database.webhookDelivery.findMany({
    where: { endpoint: { tenantId: tenant.id } },
  });
  assert.equal(deliveries.length, events.length);
  const direct = deliveries.map((delivery) =>
    ZDirectWebhookPayload.parse(JSON.parse(Buffer.from(delivery.body).toString('utf8'))),
  );
  const completed = direct.find((payload) => payload.type === 'certification.run_completed');
  assert.equal(completed?.data.payload['runId'], run.id);
  assert.deepEqual(completed?.data.payload['totals'], { documents: 0, accepted: 0 });
  const failed = direct.find(
    (payload) => payload.type === 'certification.state_changed' && payload.data.payload['state'] === 'failed',
  );
  assert.equal(failed?.data.severity, 'error');

  for (const event of events) {
    const partner = buildPartnerWebhookPayload(recordOf(event), {
      fiscalAccountId: tenant.id,
      externalTenantId: 'erp-42',
    });
    assert.equal(
      partner.resource.kind,
      event.type === 'certification.run_completed' ? 'certification_run' : 'certification_case',
    );
  }
  const { rows } = await sqlPoolOf(context.database).query<{ count: number }>(
    `SELECT count(*)::int AS count FROM webhook_events WHERE tenant_id = $1 AND environment <> 'CerteCF'`,
    [tenant.id],
  );
  assert.equal(rows[0]?.count, 0);
});

test('a failing run and its failed case are one change: while the case is locked, the run is not seen over either', async () => {
  const tenant = await seedTenant(context.database);
  const now = new Date();
  const { case: opened } = await ensureOpenCertificationCase(context.database, { tenantId: tenant.id });
  const run = await insertCertificationRun(context.database, {
    tenantId: tenant.id,
    caseId: opened.id,
    setId: null,
    part: 'data',
    source: 'taxauth_model',
    idempotencyKey: null,
    requestFingerprint: null,
    correlationId: null,
    items: [
      {
        position: 1,
        sheetRow: 2,
        caseRef: null,
        type: 31,
        encf: 'E310000000001',
        dependsOn: null,
        document: {},
        rfce: null,
      },
    ],
    now,
    enqueue: recordingEnqueue(),
  });
  const pool = sqlPoolOf(context.database);
  // The row could not be issued: the next step ends the run `failed` and fails the case.
  await pool.query(`UPDATE certification_run_items SET state = 'failed' WHERE run_id = $1`, [run.id]);
  const xsd = await loadXsdValidators(OFFICIAL_XSD_DIRECTORY);
  const holder = await pool.connect();
  let advancing: ReturnType<typeof advanceCertificationRun> | undefined;
  try {
    await holder.query('BEGIN');
    await holder.query('SELECT id FROM certification_cases WHERE id = $1 FOR UPDATE', [opened.id]);
    advancing = advanceCertificationRun({
      database: context.database,
      runId: run.id,
      generation: run.advanceGeneration,
      enqueue: recordingEnqueue(),
      xsd,
      now: () => new Date(),
    });
    // The step reaches the case and waits for its lock.
    const deadline = Date.now() + 30_000;
    for (;;) {
      const { rows } = await pool.query<{ waiting: number }>(
        `SELECT count(*)::int AS waiting FROM pg_stat_activity
          WHERE datname = current_database() AND wait_event_type = 'Lock'`,
      );
      if ((rows[0]?.waiting ?? 0) > 0) break;
      assert.ok(Date.now() < deadline, 'the step never waited for the case');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const { rows } = await pool.query<{ state: string }>(
      `SELECT state FROM certification_runs WHERE id = $1`,
      [run.id],
    );
    assert.equal(rows[0]?.state, 'running', 'the run is not over before its case moved');
  } finally {
    await holder.query('COMMIT');
    holder.release();
  }
  assert.equal((await advancing)?.outcome, 'failed');
  xsd.dispose();
  const { rows } = await pool.query<{ run: string; case: string }>(
    `SELECT r.state AS run, c.state AS case FROM certification_runs r JOIN certification_cases c ON c.id = r.case_id
      WHERE r.id = $1`,
    [run.id],
  );
  assert.deepEqual(rows[0], { run: 'failed', case: 'failed' });
});
