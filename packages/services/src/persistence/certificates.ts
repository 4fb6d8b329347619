/**
 * Tenant signing certificates (`tenant_certificates`): sealed PKCS#12 and password, their metadata,
 * and which one is active. Nothing here decrypts: the accounts domain seals and opens.
 */
import { prepared, sqlPoolOf, type TDatabase } from '@ecf/db';

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

/**
 * Inserts a tenant's certificate as its active one and deactivates the previous active row, in one
 * transaction that locks the tenant row (two uploads never leave two active rows).
 */
export async function insertActiveCertificate(
  database: TDatabase,
  row: Omit<TTenantCertificateMetadata, 'active' | 'createdAt' | 'revokedAt'> & {
    encryptedP12: Uint8Array<ArrayBuffer>;
    encryptedPassword: Uint8Array<ArrayBuffer>;
  },
): Promise<TTenantCertificateMetadata> {
  return database.$transaction(async (transaction) => {
    await transaction.$queryRaw`SELECT id FROM tenants WHERE id = ${row.tenantId}::uuid FOR UPDATE`;
    await transaction.tenantCertificate.updateMany({
      where: { tenantId: row.tenantId, active: true },
      data: { active: false },
    });
    return transaction.tenantCertificate.create({ data: { ...row, active: true }, select: METADATA_SELECT });
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
