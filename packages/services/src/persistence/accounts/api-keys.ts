/**
 * API keys created and revoked by a person (the portal, the admin CLI): the key's row and its
 * audit entry in ONE transaction, so a key never exists without its entry. Only the key's SHA-256
 * is stored; the clear key leaves here once, to the caller, and never goes into the audit entry.
 */
import {
  ALL_SCOPES,
  generateApiKey,
  inSqlTransaction,
  scopeFromDatabase,
  type Environment,
  type TDatabase,
  type TScope,
} from '@ecf/db';
import { insertAuditEntry, type TAuditEntryInput } from '../audit/portal-audit.ts';

/** A key as its owners may see it (nothing secret). */
export type TApiKeyRow = {
  id: string;
  tenantId: string;
  name: string;
  prefix: string;
  environment: Environment;
  scopes: TScope[];
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
};

type TApiKeyRecord = {
  id: string;
  tenant_id: string;
  name: string;
  prefix: string;
  environment: Environment;
  scopes: string[] | null;
  created_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
};

const RETURNING = `RETURNING id, tenant_id, name, prefix, environment, scopes::text[] AS scopes, created_at, last_used_at, revoked_at`;

function rowOf(record: TApiKeyRecord): TApiKeyRow {
  return {
    id: record.id,
    tenantId: record.tenant_id,
    name: record.name,
    prefix: record.prefix,
    environment: record.environment,
    // The database's enum labels are the specification's spelling (`ecf:read`).
    scopes: (record.scopes ?? []).filter((scope): scope is TScope =>
      (ALL_SCOPES as string[]).includes(scope),
    ),
    createdAt: record.created_at,
    lastUsedAt: record.last_used_at,
    revokedAt: record.revoked_at,
  };
}

type TKeyAudit = Pick<TAuditEntryInput, 'actorUserId' | 'action' | 'ip'>;

/** Inserts a key and its audit entry (`data`: prefix, environment, scopes, name). */
export async function insertAuditedApiKey(
  database: TDatabase,
  input: { tenantId: string; environment: Environment; scopes: TScope[]; name: string; at: Date },
  audit: TKeyAudit & { data?: Record<string, unknown> },
): Promise<{ key: string; row: TApiKeyRow }> {
  const { key, prefix, hash } = generateApiKey(input.environment);
  const row = await inSqlTransaction(database, async (sql) => {
    const { rows } = await sql.query<TApiKeyRecord>(
      `INSERT INTO api_keys (id, tenant_id, environment, name, prefix, hash, scopes, created_at)
       VALUES (gen_random_uuid(), $1::uuid, $2::"Environment", $3, $4, $5, $6::"ApiKeyScope"[], $7)
       ${RETURNING}`,
      [input.tenantId, input.environment, input.name, prefix, hash, input.scopes, input.at],
    );
    const inserted = rows[0];
    if (inserted === undefined) throw new Error('the API key was not inserted');
    const created = rowOf(inserted);
    await insertAuditEntry(sql, {
      ...audit,
      tenantId: input.tenantId,
      targetType: 'api_key',
      targetId: created.id,
      data: {
        ...audit.data,
        prefix: created.prefix,
        environment: created.environment,
        scopes: created.scopes,
        name: created.name,
      },
      at: input.at,
    });
    return created;
  });
  return { key, row };
}

/**
 * Revokes a tenant's key with its audit entry. Null when the tenant has no such key; a key already
 * revoked is returned as it is, without a new entry.
 */
export async function revokeAuditedApiKey(
  database: TDatabase,
  input: { tenantId: string; apiKeyId: string; at: Date },
  audit: TKeyAudit & { data?: Record<string, unknown> },
): Promise<TApiKeyRow | null> {
  return inSqlTransaction(database, async (sql) => {
    const { rows } = await sql.query<TApiKeyRecord>(
      `UPDATE api_keys SET revoked_at = $3 WHERE id = $1::uuid AND tenant_id = $2::uuid AND revoked_at IS NULL ${RETURNING}`,
      [input.apiKeyId, input.tenantId, input.at],
    );
    const revoked = rows[0];
    if (revoked === undefined) {
      const existing = await sql.query<TApiKeyRecord>(
        `SELECT id, tenant_id, name, prefix, environment, scopes::text[] AS scopes, created_at, last_used_at, revoked_at
           FROM api_keys WHERE id = $1::uuid AND tenant_id = $2::uuid`,
        [input.apiKeyId, input.tenantId],
      );
      const found = existing.rows[0];
      return found === undefined ? null : rowOf(found);
    }
    const row = rowOf(revoked);
    await insertAuditEntry(sql, {
      ...audit,
      tenantId: input.tenantId,
      targetType: 'api_key',
      targetId: row.id,
      data: { ...audit.data, prefix: row.prefix, environment: row.environment },
      at: input.at,
    });
    return row;
  });
}

/** A tenant's keys (optionally of one environment), newest first, nothing secret. */
export async function findApiKeyRows(
  database: TDatabase,
  input: { tenantId: string; environment?: Environment },
): Promise<TApiKeyRow[]> {
  const keys = await database.apiKey.findMany({
    where: {
      tenantId: input.tenantId,
      ...(input.environment === undefined ? {} : { environment: input.environment }),
    },
    orderBy: { createdAt: 'desc' },
  });
  return keys.map((key) => ({
    id: key.id,
    tenantId: key.tenantId,
    name: key.name,
    prefix: key.prefix,
    environment: key.environment,
    scopes: key.scopes.map(scopeFromDatabase),
    createdAt: key.createdAt,
    lastUsedAt: key.lastUsedAt,
    revokedAt: key.revokedAt,
  }));
}
