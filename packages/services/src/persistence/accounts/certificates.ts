/**
 * Tenant signing certificates (`tenant_certificates`): sealed PKCS#12 and password, their metadata,
 * and which one is active. Nothing here decrypts: the accounts domain seals and opens.
 */
import { inSqlTransaction, prepared, sqlPoolOf, type TDatabase } from '@ecf/db';
import { insertAuditEntry, type TAuditEntryInput } from '../audit/portal-audit.ts';

/** A stored certificate as operators and APIs may see it: metadata only, never the key, file or password. */
export type TTenantCertificateMetadata = {
  id: string;
  tenantId: string;
  holderId: string | null;
  subject: string;
  serialNumber: string;
  validFrom: Date;
  validTo: Date;
  keyId: string;
  /** Key usages read at upload (`digitalSignature`, `nonRepudiation`...); empty for rows stored before. */
  keyUsage: string[];
  active: boolean;
  createdAt: Date;
  revokedAt: Date | null;
};

const METADATA_SELECT = {
  id: true,
  tenantId: true,
  holderId: true,
  subject: true,
  serialNumber: true,
  validFrom: true,
  validTo: true,
  keyId: true,
  keyUsage: true,
  active: true,
  createdAt: true,
  revokedAt: true,
} as const;

/** A certificate row as stored: its metadata and the sealed file and password. */
export type TSealedCertificate = {
  id: string;
  tenantId: string;
  keyId: string;
  encryptedP12: Uint8Array;
  encryptedPassword: Uint8Array;
};

type TMetadataRow = {
  id: string;
  tenant_id: string;
  holder_id: string | null;
  subject: string;
  serial_number: string;
  valid_from: Date;
  valid_to: Date;
  key_id: string;
  key_usage: string[];
  active: boolean;
  created_at: Date;
  revoked_at: Date | null;
};

/**
 * Inserts a tenant's certificate as its active one, deactivates the previous active row and
 * appends the audit entry (`audit`, with the new row's id as target), in ONE transaction that
 * locks the tenant row: two uploads never leave two active rows, and a failure changes nothing.
 */
export async function insertActiveCertificate(
  database: TDatabase,
  row: Omit<TTenantCertificateMetadata, 'active' | 'createdAt' | 'revokedAt'> & {
    encryptedP12: Uint8Array<ArrayBuffer>;
    encryptedPassword: Uint8Array<ArrayBuffer>;
  },
  audit?: Omit<TAuditEntryInput, 'tenantId' | 'targetType' | 'targetId'>,
): Promise<TTenantCertificateMetadata> {
  return inSqlTransaction(database, async (sql) => {
    await sql.query(`SELECT id FROM tenants WHERE id = $1::uuid FOR UPDATE`, [row.tenantId]);
    await sql.query(`UPDATE tenant_certificates SET active = false WHERE tenant_id = $1::uuid AND active`, [
      row.tenantId,
    ]);
    const { rows } = await sql.query<TMetadataRow>(
      `INSERT INTO tenant_certificates (id, tenant_id, holder_id, subject, serial_number, valid_from, valid_to,
         key_id, key_usage, encrypted_p12, encrypted_password, active, created_at)
       VALUES ($1::uuid, $2::uuid, $3, $4, $5, $6, $7, $8, $9::text[], $10, $11, true, now())
       RETURNING id, tenant_id, holder_id, subject, serial_number, valid_from, valid_to, key_id, key_usage,
         active, created_at, revoked_at`,
      [
        row.id,
        row.tenantId,
        row.holderId,
        row.subject,
        row.serialNumber,
        row.validFrom,
        row.validTo,
        row.keyId,
        row.keyUsage,
        Buffer.from(row.encryptedP12),
        Buffer.from(row.encryptedPassword),
      ],
    );
    const inserted = rows[0];
    if (inserted === undefined) throw new Error('the certificate row was not inserted');
    if (audit !== undefined)
      await insertAuditEntry(sql, {
        ...audit,
        tenantId: row.tenantId,
        targetType: 'certificate',
        targetId: inserted.id,
      });
    return {
      id: inserted.id,
      tenantId: inserted.tenant_id,
      holderId: inserted.holder_id,
      subject: inserted.subject,
      serialNumber: inserted.serial_number,
      validFrom: inserted.valid_from,
      validTo: inserted.valid_to,
      keyId: inserted.key_id,
      keyUsage: inserted.key_usage,
      active: inserted.active,
      createdAt: inserted.created_at,
      revokedAt: inserted.revoked_at,
    };
  });
}

/** The row of a tenant's active certificate (its id and master key id); null when it has none. */
export async function findActiveCertificateRow(
  database: TDatabase,
  tenantId: string,
): Promise<{ id: string; keyId: string } | null> {
  const { rows } = await sqlPoolOf(database).query<{ id: string; key_id: string }>(
    prepared(
      `SELECT id, key_id FROM tenant_certificates WHERE tenant_id = $1::uuid AND active AND revoked_at IS NULL ORDER BY created_at DESC LIMIT 1`,
      [tenantId],
    ),
  );
  return rows[0] === undefined ? null : { id: rows[0].id, keyId: rows[0].key_id };
}

/** The sealed file and password of a certificate row. */
export async function readSealedCertificate(
  database: TDatabase,
  certificateId: string,
): Promise<{ encryptedP12: Uint8Array; encryptedPassword: Uint8Array }> {
  return database.tenantCertificate.findUniqueOrThrow({
    where: { id: certificateId },
    select: { encryptedP12: true, encryptedPassword: true },
  });
}

/** Every certificate of a tenant, newest first, metadata only. */
export async function findCertificatesOfTenant(
  database: TDatabase,
  tenantId: string,
): Promise<TTenantCertificateMetadata[]> {
  return database.tenantCertificate.findMany({
    where: { tenantId },
    orderBy: { createdAt: 'desc' },
    select: METADATA_SELECT,
  });
}

/** Certificates not sealed with `currentKeyId` (optionally of one tenant), oldest first. */
export async function findCertificatesSealedWithOtherKeys(
  database: TDatabase,
  input: { currentKeyId: string; tenantId?: string | undefined },
): Promise<TSealedCertificate[]> {
  return database.tenantCertificate.findMany({
    where: { keyId: { not: input.currentKeyId }, ...(input.tenantId ? { tenantId: input.tenantId } : {}) },
    select: { id: true, tenantId: true, keyId: true, encryptedP12: true, encryptedPassword: true },
    orderBy: { createdAt: 'asc' },
  });
}

/** Replaces a row's sealed values if it is still sealed with `fromKeyId`; true when this call did. */
export async function resealCertificate(
  database: TDatabase,
  input: {
    id: string;
    fromKeyId: string;
    keyId: string;
    encryptedP12: Uint8Array<ArrayBuffer>;
    encryptedPassword: Uint8Array<ArrayBuffer>;
  },
): Promise<boolean> {
  const updated = await database.tenantCertificate.updateMany({
    where: { id: input.id, keyId: input.fromKeyId },
    data: {
      keyId: input.keyId,
      encryptedP12: input.encryptedP12,
      encryptedPassword: input.encryptedPassword,
    },
  });
  return updated.count > 0;
}

/**
 * The daily certificate scan (Partner events): marks active certificates of Partner accounts that
 * expired (`expired_notified_at`) or expire within `withinDays` (`expiring_notified_at`), each once;
 * the marking statement's trigger (migration 0017) writes `certificate.expired` / `certificate.expiring`.
 */
export async function markCertificatesExpiring(
  database: TDatabase,
  input: { now: Date; withinDays: number },
): Promise<{ expiring: string[]; expired: string[] }> {
  const pool = sqlPoolOf(database);
  const expired = await pool.query<{ id: string }>(
    `UPDATE tenant_certificates c SET expired_notified_at = $1
       FROM tenants t
      WHERE t.id = c.tenant_id AND t.partner_id IS NOT NULL AND c.active AND c.valid_to <= $1
        AND c.expired_notified_at IS NULL
      RETURNING c.id::text`,
    [input.now],
  );
  const expiring = await pool.query<{ id: string }>(
    `UPDATE tenant_certificates c SET expiring_notified_at = $1
       FROM tenants t
      WHERE t.id = c.tenant_id AND t.partner_id IS NOT NULL AND c.active AND c.valid_to > $1
        AND c.valid_to <= $1::timestamptz + make_interval(days => $2) AND c.expiring_notified_at IS NULL
      RETURNING c.id::text`,
    [input.now, input.withinDays],
  );
  return { expiring: expiring.rows.map((row) => row.id), expired: expired.rows.map((row) => row.id) };
}
