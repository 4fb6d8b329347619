import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import pg from 'pg';
import {
  authenticate,
  getWithToken,
  issuerFor,
  openSimulator,
  postXml,
  signedEcf,
  waitForResult,
  type TSimulatorHarness,
  jsonOf,
} from '../test/simulator-harness.ts';

let harness: TSimulatorHarness;
const issuer = issuerFor('131880738');

before(async () => {
  harness = await openSimulator({ processingDelayMs: 300, schema: 'sim_persisted' });
});
after(async () => {
  await harness.close();
});

test('the schema is created in the configured database and schema name, by its migrations', async () => {
  const client = new pg.Client({ connectionString: harness.database.url });
  await client.connect();
  try {
    const tables = await client.query<{ table_name: string }>(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = 'sim_persisted' ORDER BY table_name`,
    );
    assert.deepEqual(
      tables.rows.map((row) => row.table_name),
      [
        '_ecf_migrations',
        'annulled_ranges',
        'approvals',
        'certification_attestations',
        'certification_progress',
        'certification_reception_tests',
        'certification_sets',
        'certifications',
        'encf_counters',
        'faults',
        'meta',
        'tracks',
        'used_encf',
      ],
    );
    const applied = await client.query<{ id: string }>(
      'SELECT id FROM sim_persisted._ecf_migrations ORDER BY id',
    );
    assert.deepEqual(
      applied.rows.map((row) => row.id),
      ['0001_init', '0002_certification'],
    );
    const publicTables = await client.query(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'`,
    );
    assert.equal(publicTables.rowCount, 0, 'nothing of the simulator lands in the public schema');
  } finally {
    await client.end();
  }
});

test('a restarted simulator still knows the trackId, its pending state, the used e-NCF and the token', async () => {
  const token = await authenticate(harness.baseUrl, 'testecf', issuer);
  const document = signedEcf(issuer, { encf: 'E310000000042' });
  const sent = await postXml(`${harness.baseUrl}/testecf/recepcion/api/facturaselectronicas`, document.xml, {
    fileName: document.fileName,
    token,
  });
  const { trackId } = (await jsonOf(sent)) as { trackId: string };

  await harness.restart({ processingDelayMs: 300 });

  const pending = await jsonOf(
    await getWithToken(
      `${harness.baseUrl}/testecf/consultaresultado/api/consultas/estado?trackid=${trackId}`,
      token,
    ),
  );
  assert.equal(pending.trackId, trackId);
  const final = await waitForResult(harness.baseUrl, 'testecf', token, trackId);
  assert.equal(final['estado'], 'Aceptado');

  const again = await postXml(`${harness.baseUrl}/testecf/recepcion/api/facturaselectronicas`, document.xml, {
    fileName: document.fileName,
    token,
  });
  assert.equal(again.status, 200, 'the token issued before the restart is still valid');
  const duplicate = await waitForResult(
    harness.baseUrl,
    'testecf',
    token,
    ((await jsonOf(again)) as { trackId: string }).trackId,
  );
  assert.equal(duplicate['estado'], 'Rechazado');
  assert.equal((duplicate['mensajes'] as Array<{ codigo: number }>)[0]?.codigo, 9);
});

test('two simulators on the same schema accept a raced e-NCF exactly once', async () => {
  const second = await harness.startAnother({ processingDelayMs: 0, schema: 'sim_persisted' });
  const token = await authenticate(harness.baseUrl, 'testecf', issuer);
  const documents = Array.from({ length: 5 }, (_unused, index) =>
    signedEcf(issuer, { encf: `E3100000009${String(index).padStart(2, '0')}` }),
  );
  const sends = documents.flatMap((document) =>
    [harness.baseUrl, second.baseUrl, harness.baseUrl, second.baseUrl].map(async (baseUrl) => {
      const response = await postXml(`${baseUrl}/testecf/recepcion/api/facturaselectronicas`, document.xml, {
        fileName: document.fileName,
        token,
      });
      return {
        encf: document.fileName.slice(9, 22),
        trackId: ((await jsonOf(response)) as { trackId: string }).trackId,
      };
    }),
  );
  const sent = await Promise.all(sends);
  const accepted = new Map<string, number>();
  for (const { encf, trackId } of sent) {
    const body = await waitForResult(harness.baseUrl, 'testecf', token, trackId);
    if (body['estado'] === 'Aceptado') accepted.set(encf, (accepted.get(encf) ?? 0) + 1);
    else assert.equal(body['estado'], 'Rechazado');
  }
  assert.equal(accepted.size, 5);
  assert.ok(
    [...accepted.values()].every((count) => count === 1),
    JSON.stringify([...accepted]),
  );
});

test('load-test mode answers at once and skips signature and XSD checks', async () => {
  const fast = await harness.startAnother({ loadTest: true, processingDelayMs: 5000, schema: 'sim_load' });
  const token = await authenticate(fast.baseUrl, 'testecf', issuer);
  const document = signedEcf(issuer, { encf: 'E310000000001' });
  const tampered = document.xml.replace('<MontoTotal>236.00</MontoTotal>', '<MontoTotal>236.01</MontoTotal>');
  const response = await postXml(`${fast.baseUrl}/testecf/recepcion/api/facturaselectronicas`, tampered, {
    fileName: document.fileName,
    token,
  });
  const { trackId } = (await jsonOf(response)) as { trackId: string };
  const body = await jsonOf(
    await getWithToken(
      `${fast.baseUrl}/testecf/consultaresultado/api/consultas/estado?trackid=${trackId}`,
      token,
    ),
  );
  assert.equal(body.estado, 'Aceptado', 'no processing delay and no signature check');

  // Throughput figure for the README: sequential receptions of distinct 10-line e-CF.
  const count = 200;
  const bodies = Array.from({ length: count }, (_unused, index) =>
    signedEcf(issuer, { encf: `E31${String(10_000 + index).padStart(10, '0')}`, lines: 10 }),
  );
  const started = performance.now();
  await Promise.all(
    Array.from({ length: 8 }, async (_unused, worker) => {
      for (let index = worker; index < count; index += 8) {
        const item = bodies[index];
        if (item === undefined) continue;
        const answer = await postXml(`${fast.baseUrl}/testecf/recepcion/api/facturaselectronicas`, item.xml, {
          fileName: item.fileName,
          token,
        });
        assert.equal(answer.status, 200);
        await answer.arrayBuffer();
      }
    }),
  );
  const elapsed = performance.now() - started;
  console.log(
    `load-test mode: ${count} receptions in ${elapsed.toFixed(0)} ms (${((count / elapsed) * 1000).toFixed(0)}/s, 8 concurrent clients)`,
  );
});
