import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { CORRELATION_SETTING, currentCorrelationId } from './correlation.ts';
import { PrismaClient } from './generated/prisma/client.ts';

export type TDatabase = PrismaClient;

/** The node-postgres pool under each client made by {@link createDatabaseClient}. */
const POOLS = new WeakMap<TDatabase, pg.Pool>();

/**
 * Creates a Prisma client over node-postgres (no Prisma engine binaries: the query compiler
 * runs in-process and queries go through the pg driver adapter). The pool it runs on is also
 * reachable with {@link sqlPoolOf} for the hot paths that use plain SQL; `$disconnect` ends it
 * (whether or not Prisma itself ever connected).
 */
export function createDatabaseClient(options: {
  databaseUrl: string;
  /** The pool's size: this client's share of the process's connection budget (connection-budget.ts). */
  maxConnections?: number;
  /**
   * How long a query or transaction waits for a pooled connection (and a new connection for its
   * handshake) before failing with pg's "timeout exceeded" (`isDatabaseBusy`: 503 at the
   * transports). Default 0: wait for ever (tests, CLIs).
   */
  poolTimeoutMs?: number;
}): TDatabase {
  const pool = new pg.Pool({
    connectionString: options.databaseUrl,
    max: options.maxConnections ?? 10,
    connectionTimeoutMillis: options.poolTimeoutMs ?? 0,
  });
  // An idle connection the server ends (a restart, a failover, pg_terminate_backend) makes the pool
  // emit 'error'; unheard, that event would crash the process. The pool drops that connection and the
  // next query opens another, so the failure surfaces, if at all, on the query that needs one.
  pool.on('error', () => undefined);
  carryCorrelationIds(pool);
  // One end for the adapter's call and ours, so `$disconnect` resolves only once every connection is
  // closed (a second `pool.end()` throws; skipping it returned while connections were still closing).
  const endPool = pool.end.bind(pool);
  let ending: Promise<void> | undefined;
  pool.end = () => (ending ??= endPool());
  const client = new PrismaClient({
    adapter: new PrismaPg(pool, { disposeExternalPool: true }),
    // Interactive transactions wait for a pooled connection as long as plain SQL does. With the
    // default 2 s, a busy pool or a CPU stall lets `maxWait` expire while BEGIN is on the wire, and
    // the pg adapter then returns the connection to the pool inside the open transaction
    // (prisma/orm#29719): the next COMMIT on it would commit the abandoned work too.
    transactionOptions: { maxWait: 60_000, timeout: 60_000 },
  });
  // The adapter ends the pool only if Prisma itself connected; plain SQL may have used it alone.
  const disconnect = client.$disconnect.bind(client);
  client.$disconnect = async () => {
    await disconnect();
    await pool.end();
  };
  POOLS.set(client, pool);
  return client;
}

/** The `ecf.correlation_id` each pooled connection was last given ('' : none). */
const APPLIED_CORRELATION = new WeakMap<pg.PoolClient, string>();
const SET_CORRELATION = {
  name: 'ecf_set_correlation_id',
  text: `SELECT set_config('${CORRELATION_SETTING}', $1, false)`,
};

/**
 * Every connection the pool hands out (`connect`, which `pool.query`, the Prisma adapter and
 * `inPoolTransaction` all go through) carries the correlation id of the caller's request
 * (correlation.ts), read when the caller asked for it: one `set_config` round trip when the
 * connection last served another request, none when it is unchanged (a worker, which never runs
 * inside a request, never pays it).
 */
function carryCorrelationIds(pool: pg.Pool): void {
  const connect = pool.connect.bind(pool) as () => Promise<pg.PoolClient>;
  const connectCarrying = async (wanted: string): Promise<pg.PoolClient> => {
    const client = await connect();
    if ((APPLIED_CORRELATION.get(client) ?? '') === wanted) return client;
    try {
      await client.query({ ...SET_CORRELATION, values: [wanted] });
    } catch (error) {
      client.release(error instanceof Error ? error : new Error(String(error)));
      throw error;
    }
    APPLIED_CORRELATION.set(client, wanted);
    return client;
  };
  pool.connect = ((
    callback?: (
      error: Error | undefined,
      client?: pg.PoolClient,
      done?: (release?: Error | boolean) => void,
    ) => void,
  ) => {
    const ready = connectCarrying(currentCorrelationId() ?? '');
    if (callback === undefined) return ready;
    ready.then(
      (client) => callback(undefined, client, (error?: Error | boolean) => client.release(error)),
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
    );
    return undefined;
  }) as typeof pool.connect;
}

/**
 * The node-postgres pool of a client made by {@link createDatabaseClient}. Plain SQL through it
 * costs a fraction of a Prisma model query (about 0.1 ms of CPU against 1 ms, measured in
 * bench/pipeline); the worker's and emission's hot paths use it.
 */
export function sqlPoolOf(database: TDatabase): pg.Pool {
  const pool = POOLS.get(database);
  if (pool === undefined) throw new TypeError('sqlPoolOf: this client was not made by createDatabaseClient');
  return pool;
}
