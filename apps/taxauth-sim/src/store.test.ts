import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, test } from 'node:test';
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { createTestDatabase, type TTestDatabase } from '@ecf/db/testing';
import { openStore, type TTrack } from './store.ts';

let database: TTestDatabase;
let store: Awaited<ReturnType<typeof openStore>>;
before(async () => {
  database = await createTestDatabase({ migrated: false });
  store = await openStore({ databaseUrl: database.url, schema: 'sim_store' });
});
after(async () => {
  await store.close();
  await database.drop();
});

function trackOf(encf: string): TTrack {
  return {
    trackId: randomUUID(),
    environment: 'testecf',
    kind: 'ECF',
    submitterRnc: '131880738',
    rncEmisor: '131880738',
    encf,
    rncComprador: null,
    idExtranjero: null,
    montoTotal: '100.00',
    totalItbis: '0.00',
    fechaEmision: null,
    fechaFirma: null,
    codigoSeguridad: null,
    codigo: 1,
    estado: 'Aceptado',
    secuenciaUtilizada: true,
    mensajes: [],
    receivedAt: new Date(),
    finalAt: new Date(),
  };
}

test('an issuer’s receptions run concurrently, yet no e-NCF is both burned and inside a range annulled at the same time', async () => {
  for (let round = 0; round < 5; round += 1) {
    const encfs = Array.from(
      { length: 20 },
      (_unused, index) => `E31${String(round * 100 + index).padStart(10, '0')}`,
    );
    const outcomes: Record<string, string> = {};
    const submissions = encfs.map(async (encf) => {
      const stored = await store.recordSubmission(trackOf(encf), {
        burn: true,
        onConflict: (outcome) => ({ ...trackOf(encf), codigo: 2, estado: `Rechazado (${outcome})` }),
      });
      outcomes[encf] = stored.estado;
    });
    // One range over the middle ten, decided while the submissions are in flight.
    const from = encfs[5] ?? '';
    const to = encfs[14] ?? '';
    const annulment = store.annulRanges('testecf', '131880738', [{ from, to }], new Date());
    const [annulled] = await Promise.all([annulment, ...submissions]);
    const inRange = encfs.slice(5, 15);
    if (annulled?.[0] === 'annulled') {
      // Annulled first: every e-NCF of the range that came after it is refused as annulled.
      assert.ok(
        inRange.every((encf) => outcomes[encf] === 'Rechazado (annulled)'),
        JSON.stringify(outcomes),
      );
    } else {
      // A submission burned one of them first: the range was refused, and those e-NCF were accepted.
      assert.ok(
        inRange.some((encf) => outcomes[encf] === 'Aceptado'),
        JSON.stringify(outcomes),
      );
      assert.ok(
        inRange.every((encf) => outcomes[encf] === 'Aceptado'),
        JSON.stringify(outcomes),
      );
    }
    assert.ok([...encfs.slice(0, 5), ...encfs.slice(15)].every((encf) => outcomes[encf] === 'Aceptado'));
  }
});

test('receptions arriving together: each e-NCF burned once (a repeat in the same batch is refused as used), each track stored as decided and read back', async () => {
  const encfs = ['E310000009001', 'E310000009002', 'E310000009001', 'E310000009003', 'E310000009002'];
  const tracks = encfs.map((encf) => trackOf(encf));
  const stored = await Promise.all(
    tracks.map((track) =>
      store.recordSubmission(track, {
        burn: true,
        onConflict: (outcome) => ({
          ...track,
          codigo: 2,
          estado: `Rechazado (${outcome})`,
          mensajes: [{ valor: outcome, codigo: 2 }],
        }),
      }),
    ),
  );
  const byEncf = new Map<string, string[]>();
  stored.forEach((track, index) =>
    byEncf.set(encfs[index] ?? '', [...(byEncf.get(encfs[index] ?? '') ?? []), track.estado]),
  );
  for (const [encf, states] of byEncf) {
    assert.equal(states.filter((state) => state === 'Aceptado').length, 1, `${encf}: ${states.join(', ')}`);
    assert.ok(
      states.filter((state) => state !== 'Aceptado').every((state) => state === 'Rechazado (used)'),
      `${encf}: ${states.join(', ')}`,
    );
  }
  // What each caller was told is what the status query reads back (read together, one query).
  const read = await Promise.all(
    tracks.map((track) => store.getTrack('testecf', track.trackId.toUpperCase())),
  );
  assert.deepEqual(
    read.map((track) => [track?.estado, track?.codigo, track?.mensajes]),
    stored.map((track) => [track.estado, track.codigo, track.mensajes]),
  );
  assert.equal(
    await store.getTrack('ecf', tracks[0]?.trackId ?? ''),
    undefined,
    'a track is found only in its environment',
  );
  assert.equal(await store.isEncfUsed('testecf', '131880738', 'E310000009003'), true);
});

test('a schema created before migrations (tables, no ledger) is adopted as it is, its rows kept', async () => {
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    // What earlier versions created at start: the tables of 0001, and a reception in them.
    const sql = readFileSync(new URL('../migrations/0001_init/migration.sql', import.meta.url), 'utf8');
    await client.query('CREATE SCHEMA sim_legacy');
    await client.query(`SET search_path TO sim_legacy; ${sql}`);
    await client.query(
      `INSERT INTO sim_legacy.used_encf (environment, rnc_emisor, encf, track_id, used_at) VALUES ('testecf', '131880738', 'E310000000909', $1, now())`,
      [randomUUID()],
    );
  } finally {
    await client.end();
  }
  const legacy = await openStore({ databaseUrl: database.url, schema: 'sim_legacy' });
  try {
    assert.equal(await legacy.isEncfUsed('testecf', '131880738', 'E310000000909'), true, 'rows kept');
    assert.equal(await legacy.tokenEpoch(), 0);
  } finally {
    await legacy.close();
  }
  const check = new pg.Client({ connectionString: database.url });
  await check.connect();
  try {
    const { rows } = await check.query<{ id: string }>('SELECT id FROM sim_legacy._ecf_migrations');
    assert.deepEqual(
      rows.map((row) => row.id),
      ['0001_init', '0002_certification'],
      'the adopted schema is then migrated on',
    );
  } finally {
    await check.end();
  }
});
