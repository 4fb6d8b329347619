/**
 * Partners (Partner API): the partners, their keys (SHA-256 only), their browser origins, the
 * accounts they manage (tenants with `partner_id` and `external_tenant_id`), the one statement that
 * authenticates and counts a Partner request, and the usage counters of their plan.
 */
import {
  inSqlTransaction,
  prepared,
  sqlPoolOf,
  type Environment,
  type PartnerKeyProfile,
  type PartnerPaidStatus,
  type PartnerStatus,
  type ProductionState,
  type TDatabase,
} from '@ecf/db';
import { accountMatchOf } from '../accounts/accounts.ts';
import { ordinalBatchStatement } from '../batched-lookup.ts';

/** A Partner as operators and the Partner itself see it. */
export type TPartnerRow = {
  id: string;
  name: string;
  status: PartnerStatus;
  plan: string;
  paidStatus: PartnerPaidStatus;
  overdueSince: Date | null;
  billingUrl: string | null;
  createdAt: Date;
  updatedAt: Date;
};

const PARTNER_COLUMNS = `id::text AS "id", name, status::text AS "status", plan, paid_status::text AS "paidStatus",
  overdue_since AS "overdueSince", billing_url AS "billingUrl", created_at AS "createdAt", updated_at AS "updatedAt"`;

/** Creates a Partner. */
export async function insertPartner(
  database: TDatabase,
  input: { name: string; plan: string; paidStatus: PartnerPaidStatus; billingUrl: string | null; at: Date },
): Promise<TPartnerRow> {
  const { rows } = await sqlPoolOf(database).query<TPartnerRow>(
    `INSERT INTO partners (id, name, plan, paid_status, billing_url, created_at, updated_at)
     VALUES (gen_random_uuid(), $1, $2, $3::"PartnerPaidStatus", $4, $5, $5) RETURNING ${PARTNER_COLUMNS}`,
    [input.name, input.plan, input.paidStatus, input.billingUrl, input.at],
  );
  const row = rows[0];
  if (row === undefined) throw new Error('the partner was not inserted');
  return row;
}

/** A Partner by id; null when absent (or not a UUID). */
export async function findPartnerRow(database: TDatabase, partnerId: string): Promise<TPartnerRow | null> {
  const { rows } = await sqlPoolOf(database).query<TPartnerRow>(
    `SELECT ${PARTNER_COLUMNS} FROM partners WHERE id::text = $1`,
    [partnerId.toLowerCase()],
  );
  return rows[0] ?? null;
}

/** The Partner that manages an account (its `tenants.partner_id`); null for a direct account. */
export async function findPartnerRowOfTenant(
  database: TDatabase,
  tenantId: string,
): Promise<TPartnerRow | null> {
  const { rows } = await sqlPoolOf(database).query<TPartnerRow>(
    `SELECT ${PARTNER_COLUMNS} FROM partners WHERE id = (SELECT partner_id FROM tenants WHERE id = $1::uuid)`,
    [tenantId],
  );
  return rows[0] ?? null;
}

/** Every Partner, oldest first. */
export async function findPartnerRows(database: TDatabase): Promise<TPartnerRow[]> {
  const { rows } = await sqlPoolOf(database).query<TPartnerRow>(
    `SELECT ${PARTNER_COLUMNS} FROM partners ORDER BY created_at, id`,
  );
  return rows;
}

export type TPartnerChanges = {
  name?: string;
  status?: PartnerStatus;
  plan?: string;
  paidStatus?: PartnerPaidStatus;
  overdueSince?: Date | null;
  billingUrl?: string | null;
};

/** Changes a Partner's standing, plan or payment; null when there is no such Partner. */
export async function updatePartnerRow(
  database: TDatabase,
  input: { partnerId: string; changes: TPartnerChanges; at: Date },
): Promise<TPartnerRow | null> {
  const { changes } = input;
  const has = (field: keyof TPartnerChanges) => changes[field] !== undefined;
  const { rows } = await sqlPoolOf(database).query<TPartnerRow>(
    `UPDATE partners SET
       name = CASE WHEN $2 THEN $3 ELSE name END,
       status = CASE WHEN $4 THEN $5::"PartnerStatus" ELSE status END,
       plan = CASE WHEN $6 THEN $7 ELSE plan END,
       paid_status = CASE WHEN $8 THEN $9::"PartnerPaidStatus" ELSE paid_status END,
       overdue_since = CASE WHEN $10 THEN $11::timestamptz ELSE overdue_since END,
       billing_url = CASE WHEN $12 THEN $13 ELSE billing_url END,
       updated_at = $14
     WHERE id = $1::uuid RETURNING ${PARTNER_COLUMNS}`,
    [
      input.partnerId,
      has('name'),
      changes.name ?? null,
      has('status'),
      changes.status ?? null,
      has('plan'),
      changes.plan ?? null,
      has('paidStatus'),
      changes.paidStatus ?? null,
      has('overdueSince'),
      changes.overdueSince ?? null,
      has('billingUrl'),
      changes.billingUrl ?? null,
      input.at,
    ],
  );
  return rows[0] ?? null;
}

/** A partner key as its owners may see it (nothing secret). */
export type TPartnerKeyRow = {
  id: string;
  partnerId: string;
  name: string;
  prefix: string;
  profile: PartnerKeyProfile;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
};

const KEY_COLUMNS = `id::text AS "id", partner_id::text AS "partnerId", name, prefix, profile::text AS "profile",
  created_at AS "createdAt", last_used_at AS "lastUsedAt", revoked_at AS "revokedAt"`;

/** Inserts a key (its SHA-256 and visible prefix, never the key). */
export async function insertPartnerKey(
  database: TDatabase,
  input: {
    partnerId: string;
    name: string;
    profile: PartnerKeyProfile;
    prefix: string;
    hash: string;
    at: Date;
  },
): Promise<TPartnerKeyRow> {
  const { rows } = await sqlPoolOf(database).query<TPartnerKeyRow>(
    `INSERT INTO partner_keys (id, partner_id, name, prefix, hash, profile, created_at)
     VALUES (gen_random_uuid(), $1::uuid, $2, $3, $4, $5::"PartnerKeyProfile", $6) RETURNING ${KEY_COLUMNS}`,
    [input.partnerId, input.name, input.prefix, input.hash, input.profile, input.at],
  );
  const row = rows[0];
  if (row === undefined) throw new Error('the partner key was not inserted');
  return row;
}

/** A Partner's keys, newest first. */
export async function findPartnerKeyRows(database: TDatabase, partnerId: string): Promise<TPartnerKeyRow[]> {
  const { rows } = await sqlPoolOf(database).query<TPartnerKeyRow>(
    `SELECT ${KEY_COLUMNS} FROM partner_keys WHERE partner_id = $1::uuid ORDER BY created_at DESC, id DESC`,
    [partnerId],
  );
  return rows;
}

/**
 * Revokes a Partner's key by id or visible prefix (idempotent: a revoked key is returned as it is);
 * null when the Partner has no such key.
 */
export async function revokePartnerKeyRow(
  database: TDatabase,
  input: { partnerId: string; key: { id: string } | { prefix: string }; at: Date },
): Promise<TPartnerKeyRow | null> {
  const byId = 'id' in input.key;
  const { rows } = await sqlPoolOf(database).query<TPartnerKeyRow>(
    `UPDATE partner_keys SET revoked_at = COALESCE(revoked_at, $3)
      WHERE partner_id = $1::uuid AND ${byId ? 'id::text = $2' : 'prefix = $2'} RETURNING ${KEY_COLUMNS}`,
    [input.partnerId, 'id' in input.key ? input.key.id.toLowerCase() : input.key.prefix, input.at],
  );
  return rows[0] ?? null;
}

/** A registered browser origin. */
export type TBrowserOriginRow = { id: string; origin: string; createdAt: Date };

/** Registers an origin (idempotent: an origin already registered is returned as it is). */
export async function insertPartnerBrowserOrigin(
  database: TDatabase,
  input: { partnerId: string; origin: string; at: Date },
): Promise<TBrowserOriginRow> {
  const { rows } = await sqlPoolOf(database).query<TBrowserOriginRow>(
    `WITH inserted AS (
       INSERT INTO partner_browser_origins (id, partner_id, origin, created_at)
       VALUES (gen_random_uuid(), $1::uuid, $2, $3) ON CONFLICT (partner_id, origin) DO NOTHING
       RETURNING id::text AS "id", origin, created_at AS "createdAt")
     SELECT * FROM inserted
     UNION ALL SELECT id::text, origin, created_at FROM partner_browser_origins
      WHERE partner_id = $1::uuid AND origin = $2 AND NOT EXISTS (SELECT 1 FROM inserted)`,
    [input.partnerId, input.origin, input.at],
  );
  const row = rows[0];
  if (row === undefined) throw new Error('the browser origin was not inserted');
  return row;
}

/** Removes an origin; false when it was not registered. */
export async function deletePartnerBrowserOrigin(
  database: TDatabase,
  input: { partnerId: string; origin: string },
): Promise<boolean> {
  const result = await sqlPoolOf(database).query(
    `DELETE FROM partner_browser_origins WHERE partner_id = $1::uuid AND origin = $2`,
    [input.partnerId, input.origin],
  );
  return (result.rowCount ?? 0) > 0;
}

/** A Partner's origins, oldest first. */
export async function findPartnerBrowserOriginRows(
  database: TDatabase,
  partnerId: string,
): Promise<TBrowserOriginRow[]> {
  const { rows } = await sqlPoolOf(database).query<TBrowserOriginRow>(
    `SELECT id::text AS "id", origin, created_at AS "createdAt" FROM partner_browser_origins
      WHERE partner_id = $1::uuid ORDER BY created_at, origin`,
    [partnerId],
  );
  return rows;
}

/** The account (tenant) columns a Partner request needs, as the direct API's principal has them. */
export type TPartnerAccountRecord = {
  id: string;
  external_tenant_id: string;
  rnc: string;
  legal_name: string;
  trade_name: string | null;
  address: string | null;
  phones: string[];
  fiscal_email: string | null;
  deferred_send_authorized: boolean;
  payment_term_days: number | null;
  production_state: ProductionState;
  plan: string;
  province_code: string | null;
  municipality_code: string | null;
  buyer_email_environments: Environment[];
  created_at: Date;
  updated_at: Date;
};

const ACCOUNT_COLUMNS = `t.id::text AS id, t.external_tenant_id, t.rnc, t.legal_name, t.trade_name, t.address, t.phones,
  t.fiscal_email, t.deferred_send_authorized, t.payment_term_days, t.production_state::text AS production_state, t.plan,
  t.province_code, t.municipality_code, t.buyer_email_environments::text[] AS buyer_email_environments,
  t.created_at, t.updated_at`;

/** What authenticating a Partner request found and counted. */
export type TPartnerAuthRow = {
  key_id: string | null;
  partner_id: string | null;
  prefix: string | null;
  profile: PartnerKeyProfile | null;
  revoked_at: Date | null;
  stale: boolean | null;
  partner_status: PartnerStatus | null;
  partner_name: string | null;
  partner_plan: string | null;
  paid_status: PartnerPaidStatus | null;
  overdue_since: Date | null;
  billing_url: string | null;
  allowed: boolean | null;
  /**
   * `bucket → the request's position in it` for what was counted: the source address always, the
   * Partner, the permission and the account when the key is allowed.
   */
  counts: Record<string, number> | null;
  account: TPartnerAccountRecord | null;
};

export type TPartnerAuthLookup = {
  ip: string;
  hash: string;
  /** The profiles holding the route's permission. */
  profiles: string[];
  permission: string;
  accountId: string | null;
  windowStart: Date;
  expiresAt: Date;
};

/**
 * The Partner requests of a batch in ONE statement: each is counted against its source address
 * (always, a wrong key included: that is what the address limit is for); its key is looked up by
 * SHA-256 with its Partner; when the key is valid, the Partner active and the key's profile among
 * `profiles`, it is counted against the Partner (all its keys add up), the permission and, when the
 * route names one, the fiscal account, read only when it is this Partner's. A bucket's requests of
 * one window add to its counter in one upsert and each request gets its own position in that sum
 * (the first of the batch the lowest), as if counted one by one. Buckets are per Partner, so a new
 * key does not reset them; rows are `rate_limit_counters` (fixed windows, shared by every instance).
 * The counter rows are upserted in key order, so concurrent statements (two batches in flight, other
 * instances) lock them in the same order and cannot deadlock on them; a conflict PostgreSQL still
 * reports (40P01, 40001) aborts the whole statement, nothing counted, and it runs again.
 */
const AUTHENTICATE_PARTNER = `
  WITH input AS (
    SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::uuid[], $6::timestamptz[], $7::timestamptz[])
      WITH ORDINALITY AS i(ip, hash, profiles, permission, account_id, window_start, expires_at, ord)
  ), k AS (
    SELECT i.ord, i.ip, i.permission, i.account_id, i.window_start, i.expires_at,
           k.id AS key_id, k.partner_id, k.prefix, k.profile::text AS profile, k.revoked_at,
           (k.last_used_at IS NULL OR k.last_used_at < now() - interval '1 minute') AS stale,
           p.status::text AS partner_status, p.name AS partner_name, p.plan AS partner_plan,
           p.paid_status::text AS paid_status, p.overdue_since, p.billing_url,
           (k.revoked_at IS NULL AND p.status = 'active' AND k.profile::text = ANY(string_to_array(i.profiles, ','))) AS allowed
      FROM input i LEFT JOIN partner_keys k ON k.hash = i.hash LEFT JOIN partners p ON p.id = k.partner_id
  ), a AS (
    SELECT k.ord, ${ACCOUNT_COLUMNS} FROM k JOIN tenants t ON t.id = k.account_id AND t.partner_id = k.partner_id
  ), buckets AS (
    SELECT ord, window_start, expires_at, 'partner-ip:' || ip AS bucket FROM k
    UNION ALL SELECT ord, window_start, expires_at, 'partner:' || partner_id::text FROM k WHERE allowed
    UNION ALL SELECT ord, window_start, expires_at, 'partner-permission:' || partner_id::text || ':' || permission FROM k WHERE allowed
    UNION ALL SELECT k.ord, k.window_start, k.expires_at, 'partner-account:' || a.id FROM k JOIN a ON a.ord = k.ord WHERE k.allowed
  ), counted AS (
    INSERT INTO rate_limit_counters (bucket, window_start, count, expires_at)
    SELECT bucket, window_start, count(*), max(expires_at) FROM buckets GROUP BY bucket, window_start
    ORDER BY bucket, window_start
    ON CONFLICT (bucket, window_start) DO UPDATE SET count = rate_limit_counters.count + excluded.count
    RETURNING bucket, window_start, count
  ), positioned AS (
    SELECT b.ord, b.bucket,
           c.count - (SELECT count(*) FROM buckets later
                       WHERE later.bucket = b.bucket AND later.window_start = b.window_start AND later.ord > b.ord) AS position
      FROM buckets b JOIN counted c ON c.bucket = b.bucket AND c.window_start = b.window_start
  )
  SELECT k.ord, k.key_id::text AS key_id, k.partner_id::text AS partner_id, k.prefix, k.profile, k.revoked_at, k.stale,
         k.partner_status, k.partner_name, k.partner_plan, k.paid_status, k.overdue_since, k.billing_url, k.allowed,
         (SELECT json_object_agg(p.bucket, p.position) FROM positioned p WHERE p.ord = k.ord) AS counts,
         (SELECT row_to_json(a) FROM a WHERE a.ord = k.ord) AS account
    FROM k`;

const authenticateCoalesced = ordinalBatchStatement<TPartnerAuthLookup, TPartnerAuthRow>(
  AUTHENTICATE_PARTNER,
  (batch) => [
    batch.map((lookup) => lookup.ip),
    batch.map((lookup) => lookup.hash),
    batch.map((lookup) => lookup.profiles.join(',')),
    batch.map((lookup) => lookup.permission),
    batch.map((lookup) => lookup.accountId),
    batch.map((lookup) => lookup.windowStart),
    batch.map((lookup) => lookup.expiresAt),
  ],
);

/**
 * Authenticates and counts one Partner request (see {@link AUTHENTICATE_PARTNER}) in ONE round
 * trip; the requests arriving together share one statement and one upsert per counter.
 */
export async function authenticatePartnerRow(
  database: TDatabase,
  input: TPartnerAuthLookup,
): Promise<TPartnerAuthRow> {
  const row = await authenticateCoalesced(sqlPoolOf(database))(input);
  if (row === undefined) throw new Error('the partner authentication statement returned nothing');
  return row;
}

/** Records that a partner key was used now (at most once a minute per key). */
export async function touchPartnerKey(database: TDatabase, keyId: string): Promise<void> {
  await sqlPoolOf(database).query('UPDATE partner_keys SET last_used_at = now() WHERE id = $1::uuid', [
    keyId,
  ]);
}

/** A Partner's account by id (null for another Partner's or none). */
export async function findPartnerAccountRow(
  database: TDatabase,
  input: { partnerId: string; accountId: string },
): Promise<TPartnerAccountRecord | null> {
  const { rows } = await sqlPoolOf(database).query<TPartnerAccountRecord>(
    `SELECT ${ACCOUNT_COLUMNS} FROM tenants t WHERE t.partner_id = $1::uuid AND t.id::text = $2`,
    [input.partnerId, input.accountId.toLowerCase()],
  );
  return rows[0] ?? null;
}

/**
 * A Partner's accounts in creation order, `limit` from `offset`, with the total; with `search`, only
 * those whose RNC starts with it or whose name holds it (the portal's account search, issue 27).
 */
export async function findPartnerAccountPage(
  database: TDatabase,
  input: {
    partnerId: string;
    limit: number;
    offset: number;
    search?: { rncPrefix: string } | { name: string } | undefined;
  },
): Promise<{ rows: TPartnerAccountRecord[]; total: number }> {
  const pool = sqlPoolOf(database);
  // The search's parameter follows the statement's own ($4 in the page, $2 in the count).
  const [pageMatch, countMatch] = [4, 2].map((position) =>
    input.search === undefined ? null : accountMatchOf(input.search, position),
  );
  const [page, total] = await Promise.all([
    pool.query<TPartnerAccountRecord>(
      `SELECT ${ACCOUNT_COLUMNS} FROM tenants t WHERE t.partner_id = $1::uuid ${pageMatch ? `AND ${pageMatch.sql}` : ''}
        ORDER BY t.created_at, t.id LIMIT $2 OFFSET $3`,
      [input.partnerId, input.limit, input.offset, ...(pageMatch ? [pageMatch.parameter] : [])],
    ),
    pool.query<{ total: number }>(
      `SELECT count(*)::int AS total FROM tenants t
        WHERE t.partner_id = $1::uuid ${countMatch ? `AND ${countMatch.sql}` : ''}`,
      [input.partnerId, ...(countMatch ? [countMatch.parameter] : [])],
    ),
  ]);
  return { rows: page.rows, total: total.rows[0]?.total ?? 0 };
}

/** Who holds an RNC now: nobody, a direct account, this Partner's account or another Partner's. */
export type TRncHolder =
  | { kind: 'none' }
  | { kind: 'direct'; tenantId: string }
  | { kind: 'partner'; tenantId: string; partnerId: string; externalTenantId: string };

/**
 * Links `externalTenantId` of a Partner to an account: returns the existing one (`created: false`)
 * when the Partner already linked that id, else creates the tenant with the Partner's link, unless
 * the RNC is held already (`rnc_held`, with its holder). Under an advisory lock per Partner and
 * external id, and the RNC's unique index, two concurrent calls make one account.
 */
export async function linkPartnerAccount(
  database: TDatabase,
  input: {
    partnerId: string;
    externalTenantId: string;
    rnc: string;
    legalName: string;
    tradeName: string | null;
    address: string | null;
    phones: string[];
    fiscalEmail: string | null;
    provinceCode: string | null;
    municipalityCode: string | null;
    buyerEmailEnvironments: Environment[];
    at: Date;
    /** Decides (throws) whether a NEW account may be created, once no link exists: the registry check. */
    admit: () => void;
  },
): Promise<
  | { kind: 'existing'; account: TPartnerAccountRecord }
  | { kind: 'created'; account: TPartnerAccountRecord }
  | { kind: 'rnc_held'; holder: Exclude<TRncHolder, { kind: 'none' }> }
> {
  return inSqlTransaction(database, async (sql) => {
    await sql.query(
      `SELECT pg_advisory_xact_lock(hashtextextended('partner-account:' || $1 || ':' || $2, 0))`,
      [input.partnerId, input.externalTenantId],
    );
    await sql.query(`SELECT pg_advisory_xact_lock(hashtextextended('rnc:' || $1, 0))`, [input.rnc]);
    const existing = await sql.query<TPartnerAccountRecord>(
      `SELECT ${ACCOUNT_COLUMNS} FROM tenants t WHERE t.partner_id = $1::uuid AND t.external_tenant_id = $2`,
      [input.partnerId, input.externalTenantId],
    );
    const found = existing.rows[0];
    if (found !== undefined) return { kind: 'existing', account: found };
    input.admit();
    const holder = await sql.query<{
      id: string;
      partner_id: string | null;
      external_tenant_id: string | null;
    }>(`SELECT id::text, partner_id::text, external_tenant_id FROM tenants WHERE rnc = $1`, [input.rnc]);
    const held = holder.rows[0];
    if (held !== undefined) {
      return {
        kind: 'rnc_held',
        holder:
          held.partner_id === null || held.external_tenant_id === null
            ? { kind: 'direct', tenantId: held.id }
            : {
                kind: 'partner',
                tenantId: held.id,
                partnerId: held.partner_id,
                externalTenantId: held.external_tenant_id,
              },
      };
    }
    const { rows } = await sql.query<TPartnerAccountRecord>(
      `INSERT INTO tenants AS t (id, rnc, legal_name, trade_name, address, phones, fiscal_email, partner_id,
         external_tenant_id, province_code, municipality_code, buyer_email_environments, created_at, updated_at)
       VALUES (gen_random_uuid(), $1, $2, $3, $4, $5::text[], $6, $7::uuid, $8, $9, $10, $11::"Environment"[], $12, $12)
       RETURNING ${ACCOUNT_COLUMNS}`,
      [
        input.rnc,
        input.legalName,
        input.tradeName,
        input.address,
        input.phones,
        input.fiscalEmail,
        input.partnerId,
        input.externalTenantId,
        input.provinceCode,
        input.municipalityCode,
        input.buyerEmailEnvironments,
        input.at,
      ],
    );
    const created = rows[0];
    if (created === undefined) throw new Error('the account was not inserted');
    return { kind: 'created', account: created };
  });
}

/** The profile fields a Partner may change, and how each is written. */
const PROFILE_WRITABLE = {
  legalName: 'legal_name = $%::text',
  tradeName: 'trade_name = $%::text',
  fiscalEmail: 'fiscal_email = $%::text',
  phones: 'phones = $%::text[]',
  address: 'address = $%::text',
  provinceCode: 'province_code = $%::text',
  municipalityCode: 'municipality_code = $%::text',
  buyerEmailEnvironments: 'buyer_email_environments = $%::"Environment"[]',
} as const;

export type TPartnerAccountChanges = {
  legalName?: string;
  tradeName?: string | null;
  fiscalEmail?: string | null;
  phones?: string[];
  address?: string | null;
  provinceCode?: string | null;
  municipalityCode?: string | null;
  buyerEmailEnvironments?: Environment[];
};

/** Changes a Partner's account profile; null when the Partner has no such account. */
export async function updatePartnerAccountRow(
  database: TDatabase,
  input: { partnerId: string; accountId: string; changes: TPartnerAccountChanges; at: Date },
): Promise<TPartnerAccountRecord | null> {
  const sets: string[] = [];
  const values: unknown[] = [input.partnerId, input.accountId, input.at];
  for (const [field, template] of Object.entries(PROFILE_WRITABLE) as Array<
    [keyof TPartnerAccountChanges, string]
  >) {
    if (input.changes[field] === undefined) continue;
    values.push(input.changes[field]);
    sets.push(template.replace('%', String(values.length)));
  }
  const { rows } = await sqlPoolOf(database).query<TPartnerAccountRecord>(
    `UPDATE tenants AS t SET ${[...sets, 'updated_at = $3'].join(', ')}
      WHERE t.partner_id = $1::uuid AND t.id = $2::uuid RETURNING ${ACCOUNT_COLUMNS}`,
    values,
  );
  return rows[0] ?? null;
}

/** Accepted e-CF of a Partner in a Dominican month (`YYYY-MM`), per account. */
export async function findPartnerUsageRows(
  database: TDatabase,
  input: { partnerId: string; month: string },
): Promise<Array<{ tenantId: string; externalTenantId: string | null; accepted: number }>> {
  const { rows } = await sqlPoolOf(database).query<{
    tenantId: string;
    externalTenantId: string | null;
    accepted: number;
  }>(
    `SELECT u.tenant_id::text AS "tenantId", t.external_tenant_id AS "externalTenantId", u.accepted
       FROM partner_usage_counters u LEFT JOIN tenants t ON t.id = u.tenant_id
      WHERE u.partner_id = $1::uuid AND u.month = $2 ORDER BY u.accepted DESC, u.tenant_id`,
    [input.partnerId, input.month],
  );
  return rows;
}

/** The sum of a Partner's accepted e-CF in a Dominican month (the plan's quota compares it). */
export async function sumPartnerUsage(
  database: TDatabase,
  input: { partnerId: string; month: string },
): Promise<number> {
  const { rows } = await sqlPoolOf(database).query<{ used: number }>(
    prepared(
      `SELECT COALESCE(sum(accepted), 0)::int AS used FROM partner_usage_counters WHERE partner_id = $1::uuid AND month = $2`,
      [input.partnerId, input.month],
    ),
  );
  return rows[0]?.used ?? 0;
}

/** A portal user's Partner and role. */
export type TPartnerUserRow = {
  userId: string;
  partnerId: string;
  partnerName: string;
  role: 'partner_admin' | 'partner_developer';
};

/** Makes a user work for a Partner (one Partner per user; an existing link keeps its Partner and role). */
export async function insertPartnerUser(
  database: TDatabase,
  input: { userId: string; partnerId: string; role: 'partner_admin' | 'partner_developer'; at: Date },
): Promise<{ created: boolean; row: TPartnerUserRow }> {
  const { rows } = await sqlPoolOf(database).query<{ created: boolean }>(
    `INSERT INTO partner_users (id, user_id, partner_id, role, created_at)
     VALUES (gen_random_uuid(), $1::uuid, $2::uuid, $3::"PartnerUserRole", $4)
     ON CONFLICT (user_id) DO NOTHING RETURNING true AS created`,
    [input.userId, input.partnerId, input.role, input.at],
  );
  const row = await findPartnerUserRow(database, input.userId);
  if (row === null) throw new Error('the partner user was not inserted');
  return { created: rows.length > 0, row };
}

/** The Partner a portal user works for, or null. */
export async function findPartnerUserRow(
  database: TDatabase,
  userId: string,
): Promise<TPartnerUserRow | null> {
  const { rows } = await sqlPoolOf(database).query<TPartnerUserRow>(
    `SELECT u.user_id::text AS "userId", u.partner_id::text AS "partnerId", p.name AS "partnerName", u.role::text AS "role"
       FROM partner_users u JOIN partners p ON p.id = u.partner_id WHERE u.user_id = $1::uuid`,
    [userId],
  );
  return rows[0] ?? null;
}
