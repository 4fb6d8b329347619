import pg from 'pg';

/**
 * PostgreSQL connection budgets (issue 25 item 8). Every process declares the most connections
 * each of its pools may open; the sum is its budget. At start it checks that the budget fits the
 * server, and at run time a pool that is full (or a server that is full) is told apart from other
 * failures so that transports answer 503 with `Retry-After` instead of 500.
 *
 * connections of a deployment = Σ over processes (Σ of the process's pools) × that process's count
 */

/** What one process may hold: pool name → its maximum. */
export type TConnectionBudget = { process: string; pools: Record<string, number> };

/** Connections kept free for operators (psql, migrations, a second instance starting) by default. */
export const DEFAULT_CONNECTION_RESERVE = 10;

/** How long a request waits for a pooled connection before it is refused with 503, by default. */
export const DEFAULT_POOL_TIMEOUT_MS = 10_000;

/** Seconds a client is told to wait (`Retry-After`) when the database had no connection for it. */
export const DATABASE_BUSY_RETRY_AFTER_SECONDS = 5;

/** The budget's total: the sum of its pools. */
export function totalOf(budget: TConnectionBudget): number {
  return Object.values(budget.pools).reduce((sum, size) => sum + size, 0);
}

/** What the server said and what was concluded. */
export type TBudgetCheck = {
  budget: number;
  maxConnections: number;
  /** `superuser_reserved_connections` + `reserved_connections` (PostgreSQL 16+) + our reserve. */
  reserved: number;
  /** max_connections − reserved: what all our processes together may hold. */
  available: number;
  /** Connections open on the server when the check ran, other than the check's own. */
  inUse: number;
  /** Whether the budget also fits what is free right now (available − inUse); only a warning. */
  fitsNow: boolean;
};

/** A process whose budget cannot fit the server: its start is refused. */
export class ConnectionBudgetError extends Error {
  override readonly name = 'ConnectionBudgetError';
  constructor(
    message: string,
    readonly check: TBudgetCheck,
  ) {
    super(message);
  }
}

/** `name=size` pairs of a budget, for messages and logs. */
export function describeBudget(budget: TConnectionBudget): string {
  return Object.entries(budget.pools)
    .map(([name, size]) => `${name} ${size}`)
    .join(' + ');
}

/**
 * Asks the server its `max_connections`, its reserved slots and how many connections are open, on
 * one short-lived connection. Throws {@link ConnectionBudgetError} when the process's budget exceeds
 * `max_connections − superuser_reserved_connections − reserved_connections − reserve`: such a process
 * could exhaust the server on its own. Connections other processes hold now are only reported
 * (`fitsNow`): their pools grow and shrink, and a restart must not depend on them. Errors reaching
 * the server are thrown as they are (the caller decides whether to start without the check).
 */
export async function checkConnectionBudget(options: {
  databaseUrl: string;
  budget: TConnectionBudget;
  reserve?: number;
}): Promise<TBudgetCheck> {
  const reserve = options.reserve ?? DEFAULT_CONNECTION_RESERVE;
  const client = new pg.Client({ connectionString: options.databaseUrl, connectionTimeoutMillis: 5_000 });
  client.on('error', () => undefined);
  await client.connect();
  let row: { max: string; superuser: string; reserved: string | null; in_use: string };
  try {
    const result = await client.query<typeof row>(
      `SELECT current_setting('max_connections') AS max,
              current_setting('superuser_reserved_connections') AS superuser,
              current_setting('reserved_connections', true) AS reserved,
              (SELECT count(*) FROM pg_stat_activity
                WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()) AS in_use`,
    );
    row = result.rows[0]!;
  } finally {
    await client.end().catch(() => undefined);
  }
  const budget = totalOf(options.budget);
  const maxConnections = Number(row.max);
  const reserved = Number(row.superuser) + Number(row.reserved ?? 0) + reserve;
  const available = maxConnections - reserved;
  const inUse = Number(row.in_use);
  const check = { budget, maxConnections, reserved, available, inUse, fitsNow: budget <= available - inUse };
  if (budget > available) {
    throw new ConnectionBudgetError(
      `${options.budget.process}: its database connection budget (${describeBudget(options.budget)} = ${budget}) ` +
        `exceeds what the server allows: max_connections ${maxConnections} − reserved ${reserved} ` +
        `(superuser_reserved_connections ${row.superuser}, reserved_connections ${row.reserved ?? 0}, ` +
        `DB_CONNECTION_RESERVE ${reserve}) = ${available}. Lower the pool sizes or raise max_connections.`,
      check,
    );
  }
  return check;
}

/**
 * Runs {@link checkConnectionBudget} at a process's start: a budget that cannot fit stops the
 * process (message on stderr, exit code 1). A server that cannot be reached is logged and the start
 * goes on (the processes start while the database is down and connect when it is back).
 */
export async function enforceConnectionBudget(options: {
  databaseUrl: string;
  budget: TConnectionBudget;
  reserve?: number;
  log: { info: (data: object, message: string) => void; warn: (data: object, message: string) => void };
}): Promise<void> {
  let check: TBudgetCheck;
  try {
    check = await checkConnectionBudget(options);
  } catch (error) {
    if (error instanceof ConnectionBudgetError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    options.log.warn(
      {
        err: error,
        reason: error instanceof Error ? error.message : String(error),
        budget: totalOf(options.budget),
      },
      'connection budget not checked: the database did not answer',
    );
    return;
  }
  const data = { pools: options.budget.pools, ...check };
  if (check.fitsNow) options.log.info(data, 'database connection budget');
  else options.log.warn(data, 'database connection budget exceeds the connections free right now');
}

const EXHAUSTION_MESSAGES = [
  // pg-pool: no connection became free within connectionTimeoutMillis.
  'timeout exceeded when trying to connect',
  // pg: a new connection did not complete within connectionTimeoutMillis.
  'Connection terminated due to connection timeout',
  // PostgreSQL 53300 and the reserved-slot refusals, when the code is lost in a wrapper.
  'too many clients already',
  'remaining connection slots are reserved',
];

/** Codes that mean "no connection": PostgreSQL's too_many_connections, Prisma's pool timeout and its adapter's TooManyConnections. */
const EXHAUSTION_CODES = new Set(['53300', 'P2024', 'P2037']);

/**
 * Whether `error` (or anything it wraps: `cause`, Prisma's `meta.driverAdapterError`) says that no
 * database connection could be had: the pool stayed full past its timeout, or the server refused
 * a new connection for lack of slots. Such a request may be sent again: 503 with `Retry-After`.
 */
export function isDatabaseBusy(error: unknown): boolean {
  const seen = new Set<unknown>();
  let pending: unknown[] = [error];
  while (pending.length > 0) {
    const next: unknown[] = [];
    for (const item of pending) {
      if (typeof item !== 'object' || item === null || seen.has(item)) continue;
      seen.add(item);
      const record = item as {
        code?: unknown;
        originalCode?: unknown;
        kind?: unknown;
        message?: unknown;
        cause?: unknown;
        meta?: { driverAdapterError?: unknown };
        errors?: unknown;
      };
      if (typeof record.code === 'string' && EXHAUSTION_CODES.has(record.code)) return true;
      if (typeof record.originalCode === 'string' && EXHAUSTION_CODES.has(record.originalCode)) return true;
      if (record.kind === 'TooManyConnections') return true;
      if (
        typeof record.message === 'string' &&
        EXHAUSTION_MESSAGES.some((text) => (record.message as string).includes(text))
      )
        return true;
      next.push(record.cause, record.meta?.driverAdapterError);
      if (Array.isArray(record.errors)) next.push(...(record.errors as unknown[]));
    }
    pending = next;
  }
  return false;
}
