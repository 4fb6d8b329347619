/**
 * The simulator's persistence: its own PostgreSQL schema, migrated at start from
 * `apps/taxauth-sim/migrations` by the shared migrator. Everything that must
 * survive a restart or be shared by two simulator processes lives here: received documents
 * (trackIds), used and annulled e-NCF, commercial approvals, injected faults and the reset epoch
 * that invalidates earlier tokens. Uniqueness of a used e-NCF is enforced by the primary key, and
 * an advisory lock per issuer keeps annulment and submission apart: submissions hold it shared (an
 * issuer's receptions run concurrently, as at the tax authority), an annulment exclusively (no
 * e-NCF of its ranges is burned while it decides).
 */
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { batchOrEach, createCoalescer, inPoolTransaction, migrate, type TSql } from '@ecf/db';
import { createCertificationStore } from './certification/certification-store.ts';
import type { TMessage, TStateCode } from './messages.ts';

export const FAULT_KINDS = [
  'connection_reset',
  'http_503',
  'timeout',
  'slow',
  'auth_down',
  'not_delegated',
  'reject',
  'accept_conditional',
  'lose_answer',
  'partial_annulment',
  'query_lag',
] as const;
export type TFaultKind = (typeof FAULT_KINDS)[number];

export type TFault = {
  id: string;
  environment: string;
  service: string;
  fault: TFaultKind;
  delayMs: number | null;
  /** Applications left; null = unlimited. */
  remaining: number | null;
  createdAt: string;
};

export type TTrack = {
  trackId: string;
  environment: string;
  kind: 'ECF' | 'RFCE';
  submitterRnc: string | null;
  rncEmisor: string | null;
  encf: string | null;
  rncComprador: string | null;
  idExtranjero: string | null;
  montoTotal: string | null;
  totalItbis: string | null;
  fechaEmision: string | null;
  fechaFirma: string | null;
  codigoSeguridad: string | null;
  codigo: TStateCode;
  estado: string;
  secuenciaUtilizada: boolean;
  mensajes: TMessage[];
  receivedAt: Date;
  /** When the final state becomes visible; null = stays "En Proceso". */
  finalAt: Date | null;
};

export type TBurnOutcome = 'burned' | 'used' | 'annulled';

export type TAnnulRangeOutcome = 'annulled' | 'used';

/** The simulator's own migrations (its schema's tables). */
const MIGRATIONS_DIRECTORY = fileURLToPath(new URL('../migrations/', import.meta.url));

const EPOCH_CACHE_MS = 1000;
const SCHEMA_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;
/** A uuid as text in any letter case (trackIds); anything else names no track. */
const UUID_TEXT = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The columns of a track row, in insert order, with their SQL types. */
const TRACK_COLUMNS = [
  ['track_id', 'uuid'],
  ['environment', 'text'],
  ['kind', 'text'],
  ['submitter_rnc', 'text'],
  ['rnc_emisor', 'text'],
  ['encf', 'text'],
  ['rnc_comprador', 'text'],
  ['id_extranjero', 'text'],
  ['monto_total', 'text'],
  ['total_itbis', 'text'],
  ['fecha_emision', 'text'],
  ['fecha_firma', 'text'],
  ['codigo_seguridad', 'text'],
  ['codigo', 'integer'],
  ['estado', 'text'],
  ['secuencia_utilizada', 'boolean'],
  ['mensajes', 'jsonb'],
  ['received_at', 'timestamptz'],
  ['final_at', 'timestamptz'],
] as const;

function trackValues(track: TTrack): unknown[] {
  return [
    track.trackId,
    track.environment,
    track.kind,
    track.submitterRnc,
    track.rncEmisor,
    track.encf,
    track.rncComprador,
    track.idExtranjero,
    track.montoTotal,
    track.totalItbis,
    track.fechaEmision,
    track.fechaFirma,
    track.codigoSeguridad,
    track.codigo,
    track.estado,
    track.secuenciaUtilizada,
    JSON.stringify(track.mensajes),
    track.receivedAt,
    track.finalAt,
  ];
}

/** How long "no fault is active" is believed without asking again (a fault added by this process applies at once). */
const NO_FAULTS_CACHE_MS = 1000;

type TTrackRow = {
  track_id: string;
  environment: string;
  kind: 'ECF' | 'RFCE';
  submitter_rnc: string | null;
  rnc_emisor: string | null;
  encf: string | null;
  rnc_comprador: string | null;
  id_extranjero: string | null;
  monto_total: string | null;
  total_itbis: string | null;
  fecha_emision: string | null;
  fecha_firma: string | null;
  codigo_seguridad: string | null;
  codigo: number;
  estado: string;
  secuencia_utilizada: boolean;
  mensajes: TMessage[];
  received_at: Date;
  final_at: Date | null;
};

function trackOf(row: TTrackRow): TTrack {
  return {
    trackId: row.track_id,
    environment: row.environment,
    kind: row.kind,
    submitterRnc: row.submitter_rnc,
    rncEmisor: row.rnc_emisor,
    encf: row.encf,
    rncComprador: row.rnc_comprador,
    idExtranjero: row.id_extranjero,
    montoTotal: row.monto_total,
    totalItbis: row.total_itbis,
    fechaEmision: row.fecha_emision,
    fechaFirma: row.fecha_firma,
    codigoSeguridad: row.codigo_seguridad,
    codigo: row.codigo as TStateCode,
    estado: row.estado,
    secuenciaUtilizada: row.secuencia_utilizada,
    mensajes: row.mensajes,
    receivedAt: row.received_at,
    finalAt: row.final_at,
  };
}

type TFaultRow = {
  id: string;
  environment: string;
  service: string;
  fault: TFaultKind;
  delay_ms: number | null;
  remaining: number | null;
  created_at: Date;
};

function faultOf(row: TFaultRow): TFault {
  return {
    id: row.id,
    environment: row.environment,
    service: row.service,
    fault: row.fault,
    delayMs: row.delay_ms,
    remaining: row.remaining,
    createdAt: row.created_at.toISOString(),
  };
}

export type TStore = Awaited<ReturnType<typeof openStore>>;

/** Connects, applies the schema's pending migrations, and returns the queries. */
export async function openStore(options: {
  databaseUrl: string;
  schema: string;
  maxConnections?: number;
  poolTimeoutMs?: number;
}) {
  if (!SCHEMA_NAME.test(options.schema))
    throw new TypeError(`invalid simulator schema name: ${options.schema}`);
  const s = `"${options.schema}"`;
  const pool = new pg.Pool({
    connectionString: options.databaseUrl,
    max: options.maxConnections ?? 10,
    connectionTimeoutMillis: options.poolTimeoutMs ?? 0,
  });
  // An idle client losing its connection must not crash the simulator; the next query reconnects.
  pool.on('error', () => undefined);

  // The schema comes from the simulator's own migrations (apps/taxauth-sim/migrations), applied by
  // the shared migrator into `schema`: two processes starting together serialize on its lock.
  try {
    await migrate({
      databaseUrl: options.databaseUrl,
      directory: MIGRATIONS_DIRECTORY,
      schema: options.schema,
    });
  } catch (error) {
    await pool.end();
    throw error;
  }

  let epochCache: { value: number; readAt: number } | undefined;
  /** Until when "no active fault" is believed (see NO_FAULTS_CACHE_MS); 0: ask. */
  let noFaultsUntil = 0;
  /** Moves on with every fault this process adds: an answer read before it is not cached. */
  let faultsAdded = 0;

  const inTransaction = <T>(run: (client: TSql) => Promise<T>): Promise<T> => inPoolTransaction(pool, run);

  async function lockIssuer(
    client: TSql,
    environment: string,
    rnc: string,
    mode: 'shared' | 'exclusive',
  ): Promise<void> {
    const lock = mode === 'shared' ? 'pg_advisory_xact_lock_shared' : 'pg_advisory_xact_lock';
    await client.query(`SELECT ${lock}(hashtext($1))`, [issuerLockKey(environment, rnc)]);
  }

  function issuerLockKey(environment: string, rnc: string): string {
    return `taxauth-sim:${options.schema}:${environment}:${rnc}`;
  }

  async function insertTrack(client: pg.PoolClient | pg.Pool, track: TTrack): Promise<void> {
    const values = trackValues(track);
    await client.query(
      `INSERT INTO ${s}.tracks (${TRACK_COLUMNS.map(([column]) => column).join(', ')})
       VALUES (${values.map((_, index) => `$${index + 1}`).join(',')})`,
      values,
    );
  }

  type TBurn = {
    track: TTrack & { rncEmisor: string; encf: string };
    variants: Record<Exclude<TBurnOutcome, 'burned'>, TTrack>;
  };

  /**
   * Burns the e-NCFs of a batch of receptions and records their tracks in one transaction: the
   * shared lock of every issuer, then one statement. The statement runs after
   * the locks are held, so its snapshot sees every annulment committed while it waited. Each
   * reception's track is its own when its e-NCF was free, else its variant for `used` (also when an
   * earlier reception of the same batch burned it) or `annulled`: all are sent, the statement picks.
   */
  async function burnAndInsertTracks(burns: TBurn[]): Promise<TBurnOutcome[]> {
    return inTransaction(async (client) => {
      const keys = [
        ...new Set(burns.map((burn) => issuerLockKey(burn.track.environment, burn.track.rncEmisor))),
      ].sort();
      await client.query(
        `SELECT pg_advisory_xact_lock_shared(hashtext(key)) FROM unnest($1::text[]) AS key`,
        [keys],
      );
      const columns = TRACK_COLUMNS.length;
      const variants = ['burned', 'used', 'annulled'] as const;
      // One array per column and variant: $1..$19 the tracks, $20..$38 the `used` variants, $39..$57 the `annulled` ones.
      const rows = burns.map((burn) => ({
        burned: trackValues(burn.track),
        used: trackValues(burn.variants.used),
        annulled: trackValues(burn.variants.annulled),
      }));
      const values = variants.flatMap((variant) =>
        TRACK_COLUMNS.map((_, column) => rows.map((row) => row[variant][column] ?? null)),
      );
      const arrays = variants.flatMap((_, variant) =>
        TRACK_COLUMNS.map(([, type], column) => `$${variant * columns + column + 1}::${type}[]`),
      );
      const picked = TRACK_COLUMNS.map(
        ([name]) =>
          `CASE o.outcome WHEN 'burned' THEN i.b_${name} WHEN 'used' THEN i.u_${name} ELSE i.a_${name} END`,
      );
      const result = await client.query<{ ord: string; outcome: TBurnOutcome }>(
        `WITH i AS (
           SELECT * FROM unnest(${arrays.join(', ')}) WITH ORDINALITY
             AS t(${variants.flatMap((variant) => TRACK_COLUMNS.map(([name]) => `${variant[0]}_${name}`)).join(', ')}, ord)
         ), annulled AS (
           SELECT i.ord FROM i WHERE EXISTS (
             SELECT 1 FROM ${s}.annulled_ranges r WHERE r.environment = i.b_environment AND r.rnc_emisor = i.b_rnc_emisor AND i.b_encf BETWEEN r.encf_from AND r.encf_to)
         ), used AS (
           INSERT INTO ${s}.used_encf (environment, rnc_emisor, encf, track_id, used_at)
           SELECT b_environment, b_rnc_emisor, b_encf, b_track_id, b_received_at FROM i WHERE i.ord NOT IN (SELECT ord FROM annulled) ORDER BY i.ord
           ON CONFLICT DO NOTHING RETURNING track_id
         ), o AS (
           SELECT i.ord, CASE WHEN i.ord IN (SELECT ord FROM annulled) THEN 'annulled' WHEN i.b_track_id IN (SELECT track_id FROM used) THEN 'burned' ELSE 'used' END AS outcome FROM i
         ), inserted AS (
           INSERT INTO ${s}.tracks (${TRACK_COLUMNS.map(([name]) => name).join(', ')})
           SELECT ${picked.join(', ')} FROM i JOIN o ON o.ord = i.ord
         )
         SELECT ord, outcome FROM o`,
        values,
      );
      const byOrdinal = new Map(result.rows.map((row) => [Number(row.ord), row.outcome]));
      return burns.map((_, index) => byOrdinal.get(index + 1) ?? 'used');
    });
  }

  /** Receptions arriving together burn their e-NCFs in one transaction (see `createCoalescer`). */
  const burnCoalesced = createCoalescer(batchOrEach(burnAndInsertTracks));

  /** Status queries arriving together read their tracks in one query. */
  const readTrackCoalesced = createCoalescer<{ environment: string; trackId: string }, TTrack | undefined>(
    async (reads) => {
      const result = await pool.query<TTrackRow>(
        `SELECT * FROM ${s}.tracks WHERE track_id = ANY($1::uuid[])`,
        [reads.map((read) => read.trackId)],
      );
      const byId = new Map(result.rows.map((row) => [String(row.track_id).toLowerCase(), row]));
      return reads.map((read) => {
        const row = byId.get(read.trackId.toLowerCase());
        return {
          status: 'fulfilled',
          value: row === undefined || row.environment !== read.environment ? undefined : trackOf(row),
        };
      });
    },
  );

  return {
    /** The certification portal's queries (README "Certification portal"). */
    certification: createCertificationStore(pool, s),

    async close(): Promise<void> {
      await pool.end();
    },

    /**
     * The reset epoch tokens must carry. Read at most once a second per process (a reset made by
     * another process sharing the schema reaches this one within that second; a local reset at once).
     */
    async tokenEpoch(): Promise<number> {
      const now = Date.now();
      if (epochCache !== undefined && now - epochCache.readAt < EPOCH_CACHE_MS) return epochCache.value;
      const result = await pool.query<{ value: string }>(
        `SELECT value FROM ${s}.meta WHERE key = 'token_epoch'`,
      );
      epochCache = { value: Number(result.rows[0]?.value ?? '0'), readAt: now };
      return epochCache.value;
    },

    /**
     * Clears every table (certifications, their sets, progress, attestations and eNCF counters
     * included) and moves the token epoch on (earlier tokens stop being accepted).
     */
    async reset(): Promise<void> {
      await inTransaction(async (client) => {
        await client.query(
          `TRUNCATE ${s}.tracks, ${s}.used_encf, ${s}.annulled_ranges, ${s}.approvals, ${s}.faults,
             ${s}.certifications, ${s}.certification_sets, ${s}.certification_progress,
             ${s}.certification_attestations, ${s}.certification_reception_tests, ${s}.encf_counters`,
        );
        await client.query(
          `UPDATE ${s}.meta SET value = (value::bigint + 1)::text WHERE key = 'token_epoch'`,
        );
      });
      epochCache = undefined;
    },

    async addFault(fault: Omit<TFault, 'id' | 'createdAt'>): Promise<TFault> {
      faultsAdded += 1;
      noFaultsUntil = 0;
      const result = await pool.query<TFaultRow>(
        `INSERT INTO ${s}.faults (id, environment, service, fault, delay_ms, remaining) VALUES ($1,$2,$3,$4,$5,$6) RETURNING *`,
        [randomUUID(), fault.environment, fault.service, fault.fault, fault.delayMs, fault.remaining],
      );
      return faultOf(result.rows[0] as TFaultRow);
    },

    async listFaults(): Promise<TFault[]> {
      const result = await pool.query<TFaultRow>(`SELECT * FROM ${s}.faults ORDER BY seq`);
      return result.rows.map(faultOf);
    },

    async clearFaults(): Promise<void> {
      await pool.query(`DELETE FROM ${s}.faults`);
    },

    async deleteFault(id: string): Promise<boolean> {
      const result = await pool.query(`DELETE FROM ${s}.faults WHERE id::text = $1`, [id]);
      return (result.rowCount ?? 0) > 0;
    },

    /**
     * Whether any fault with applications left exists at all. "None" is believed for a second (a
     * fault added through this process applies at once, one added through another process sharing
     * the schema within that second); while faults exist every request asks.
     */
    async hasActiveFaults(): Promise<boolean> {
      if (Date.now() < noFaultsUntil) return false;
      const added = faultsAdded;
      const result = await pool.query(
        `SELECT 1 FROM ${s}.faults WHERE remaining IS NULL OR remaining > 0 LIMIT 1`,
      );
      const active = (result.rowCount ?? 0) > 0;
      if (!active && added === faultsAdded) noFaultsUntil = Date.now() + NO_FAULTS_CACHE_MS;
      return active;
    },

    /** Faults of the given kinds that apply to (environment, service), without consuming them. */
    async matchingFaults(
      environment: string,
      service: string,
      kinds: readonly TFaultKind[],
    ): Promise<TFault[]> {
      const result = await pool.query<TFaultRow>(
        `SELECT * FROM ${s}.faults WHERE environment IN ($1, '*') AND service IN ($2, '*') AND fault = ANY($3)
           AND (remaining IS NULL OR remaining > 0) ORDER BY seq`,
        [environment, service, kinds],
      );
      return result.rows.map(faultOf);
    },

    /**
     * Consumes one application of the oldest matching fault of these kinds, atomically across processes.
     * Concurrent requests wait for the row lock rather than skip it: skipping would let a request
     * through a fault that still applies (an unlimited one, or a counted one with applications left).
     */
    async takeFault(
      environment: string,
      service: string,
      kinds: readonly TFaultKind[],
    ): Promise<TFault | undefined> {
      const result = await pool.query<TFaultRow>(
        `UPDATE ${s}.faults SET remaining = remaining - 1 WHERE id = (
           SELECT id FROM ${s}.faults WHERE environment IN ($1, '*') AND service IN ($2, '*') AND fault = ANY($3)
             AND (remaining IS NULL OR remaining > 0) ORDER BY seq LIMIT 1 FOR UPDATE)
         RETURNING *`,
        [environment, service, kinds],
      );
      const row = result.rows[0];
      return row === undefined ? undefined : faultOf(row);
    },

    /**
     * Records a received document. With `burn`, the e-NCF is marked used in the same transaction;
     * when it was already used or annulled the track is recorded with the outcome's rejection instead,
     * which `onConflict` builds.
     */
    async recordSubmission(
      track: TTrack,
      options: { burn: boolean; onConflict: (outcome: Exclude<TBurnOutcome, 'burned'>) => TTrack },
    ): Promise<TTrack> {
      if (!options.burn || track.rncEmisor === null || track.encf === null) {
        await insertTrack(pool, track);
        return track;
      }
      const outcome = await burnCoalesced({
        track: { ...track, rncEmisor: track.rncEmisor, encf: track.encf },
        variants: { used: options.onConflict('used'), annulled: options.onConflict('annulled') },
      });
      return outcome === 'burned' ? track : options.onConflict(outcome);
    },

    async isEncfUsed(environment: string, rnc: string, encf: string): Promise<boolean> {
      const result = await pool.query(
        `SELECT 1 FROM ${s}.used_encf WHERE environment = $1 AND rnc_emisor = $2 AND encf = $3`,
        [environment, rnc, encf],
      );
      return (result.rowCount ?? 0) > 0;
    },

    async getTrack(environment: string, trackId: string): Promise<TTrack | undefined> {
      // Compared as a uuid so the primary key answers (a text comparison scanned every track).
      if (!UUID_TEXT.test(trackId)) return undefined;
      return readTrackCoalesced({ environment, trackId });
    },

    /** Every submission of one e-NCF, oldest first (ConsultaTrackIds). */
    async tracksOf(environment: string, rnc: string, encf: string, kind?: 'ECF' | 'RFCE'): Promise<TTrack[]> {
      const result = await pool.query<TTrackRow>(
        `SELECT * FROM ${s}.tracks WHERE environment = $1 AND rnc_emisor = $2 AND upper(encf) = upper($3) AND ($4::text IS NULL OR kind = $4)
         ORDER BY received_at, track_id`,
        [environment, rnc, encf, kind ?? null],
      );
      return result.rows.map(trackOf);
    },

    /** Annuls each range unless one of its e-NCF was used; each range is decided atomically. */
    async annulRanges(
      environment: string,
      rnc: string,
      ranges: ReadonlyArray<{ from: string; to: string }>,
      now: Date,
    ): Promise<TAnnulRangeOutcome[]> {
      return inTransaction(async (client) => {
        await lockIssuer(client, environment, rnc, 'exclusive');
        const outcomes: TAnnulRangeOutcome[] = [];
        for (const range of ranges) {
          const used = await client.query(
            `SELECT 1 FROM ${s}.used_encf WHERE environment = $1 AND rnc_emisor = $2 AND encf BETWEEN $3 AND $4 LIMIT 1`,
            [environment, rnc, range.from, range.to],
          );
          if ((used.rowCount ?? 0) > 0) {
            outcomes.push('used');
            continue;
          }
          await client.query(
            `INSERT INTO ${s}.annulled_ranges (environment, rnc_emisor, encf_from, encf_to, annulled_at) VALUES ($1,$2,$3,$4,$5)`,
            [environment, rnc, range.from, range.to, now],
          );
          outcomes.push('annulled');
        }
        return outcomes;
      });
    },

    async recordApproval(approval: {
      environment: string;
      rncEmisor: string;
      encf: string;
      rncComprador: string;
      estado: string;
      receivedAt: Date;
    }): Promise<void> {
      await pool.query(
        `INSERT INTO ${s}.approvals (environment, rnc_emisor, encf, rnc_comprador, estado, received_at) VALUES ($1,$2,$3,$4,$5,$6)
         ON CONFLICT (environment, rnc_emisor, encf) DO UPDATE SET rnc_comprador = EXCLUDED.rnc_comprador, estado = EXCLUDED.estado, received_at = EXCLUDED.received_at`,
        [
          approval.environment,
          approval.rncEmisor,
          approval.encf,
          approval.rncComprador,
          approval.estado,
          approval.receivedAt,
        ],
      );
    },
  };
}
