/**
 * Writes and reads of reception (issue 18, docs/receiving.md): `inbound_documents` rows of received
 * e-CF and ACECF with their write-once artifacts (`received_xml`, the ARECF as
 * `receiver_acknowledgement`), each kept until `retain_until`, and the `inbound.check-validity` job of a
 * received e-CF, all in ONE transaction. A second received copy of the same (tenant, environment,
 * kind, issuer, eNCF) loses on the partial unique index `inbound_documents_one_received`, even when
 * two deliveries race: the transaction is rolled back whole (no artifact of the loser stays) and the
 * caller is told, so that it answers and records the duplicate instead.
 */
import { randomUUID } from 'node:crypto';
import {
  artifactData,
  inPoolTransaction,
  jobExecutorOfSql,
  sqlPoolOf,
  type ArtifactKind,
  type Environment,
  type TAnyJobRequest,
  type TDatabase,
  type TEnqueue,
  type TSql,
} from '@ecf/db';

/** The tenant a document delivered to our reception routes belongs to. */
export type TReceivingTenant = { id: string; rnc: string; receptionAuthentication: boolean };

/** The tenant whose RNC is `rnc` (the buyer of an e-CF, the issuer of the e-CF an ACECF answers), or null. */
export async function findReceivingTenant(
  database: TDatabase,
  input: { rnc: string },
): Promise<TReceivingTenant | null> {
  const { rows } = await sqlPoolOf(database).query<{
    id: string;
    rnc: string;
    reception_authentication: boolean;
  }>('SELECT id, rnc, reception_authentication FROM tenants WHERE rnc = $1', [input.rnc]);
  const row = rows[0];
  return row === undefined
    ? null
    : { id: row.id, rnc: row.rnc, receptionAuthentication: row.reception_authentication };
}

/** The received row of a document, if one exists (the duplicate check before the insert decides). */
export async function findReceivedInboundId(
  database: TDatabase,
  input: {
    tenantId: string;
    environment: Environment;
    kind: 'ecf' | 'commercial_approval';
    issuerRnc: string;
    encf: string;
  },
): Promise<string | null> {
  const { rows } = await sqlPoolOf(database).query<{ id: string }>(
    `SELECT id FROM inbound_documents
      WHERE tenant_id = $1::uuid AND environment = $2::"Environment" AND kind = $3::"InboundKind"
        AND issuer_rnc = $4 AND encf = $5 AND status = 'received'`,
    [input.tenantId, input.environment, input.kind, input.issuerRnc, input.encf],
  );
  return rows[0]?.id ?? null;
}

/** What an ACECF is compared with: the tenant's issued document of that eNCF in the environment. */
export type TIssuedDocumentForApproval = {
  id: string;
  buyerRnc: string | null;
  /** `yyyy-MM-dd`. */
  issueDate: string;
  /** Decimal text with two decimals. */
  totalAmount: string;
};

/** The issued document an ACECF refers to, or null (the customer may answer an e-CF we never issued). */
export async function findIssuedDocumentForApproval(
  database: TDatabase,
  input: { tenantId: string; environment: Environment; encf: string },
): Promise<TIssuedDocumentForApproval | null> {
  const { rows } = await sqlPoolOf(database).query<{
    id: string;
    buyer_rnc: string | null;
    issue_date: string;
    total_amount: string;
  }>(
    `SELECT id, buyer_rnc, to_char(issue_date, 'YYYY-MM-DD') AS issue_date, total_amount::text AS total_amount
       FROM documents WHERE tenant_id = $1::uuid AND environment = $2::"Environment" AND encf = $3`,
    [input.tenantId, input.environment, input.encf],
  );
  const row = rows[0];
  return row === undefined
    ? null
    : { id: row.id, buyerRnc: row.buyer_rnc, issueDate: row.issue_date, totalAmount: row.total_amount };
}

/** An artifact of an inbound row: bytes exactly as given, kept until `retainUntil`. */
export type TInboundArtifact = { kind: ArtifactKind; contentType: string; content: string | Uint8Array };

/** The columns of a new `inbound_documents` row. */
export type TInboundInsert = {
  tenantId: string;
  environment: Environment;
  kind: 'ecf' | 'commercial_approval';
  status: 'received' | 'not_received' | 'rejected' | 'duplicate';
  notReceivedCode: number | null;
  notReceivedReason: string | null;
  issuerRnc: string;
  issuerName: string | null;
  buyerRnc: string | null;
  encf: string;
  ecfType: number;
  /** `yyyy-MM-dd` or null. */
  issueDate: string | null;
  /** Decimal text or null. */
  totalAmount: string | null;
  decision: 'accepted' | 'rejected' | null;
  decisionReason: string | null;
  decidedAtText: string | null;
  documentId: string | null;
  correspondence: unknown;
  fileName: string | null;
  signer: unknown;
  sourceAddress: string | null;
  /** `yyyy-MM-dd` or null. */
  approvalDeadline: string | null;
  receivedAt: Date;
};

/** The stored row's id and the ids and digests of its artifacts. */
export type TInboundRecorded = {
  id: string;
  xmlArtifact: { id: string; sha256: string } | null;
  acknowledgementArtifact: { id: string; sha256: string } | null;
};

/** Thrown inside the transaction when the unique index of received copies refused the row. */
class DuplicateReceived extends Error {}

/**
 * Inserts the row, its artifacts (`xml`: the bytes received; `acknowledgement`: the ARECF we answer)
 * and its jobs (with `enqueue`, on the same transaction). `{ duplicate: true }` when a `received` row
 * of the same document exists (the unique index decided; nothing of this call was kept).
 */
export async function recordInboundDocument(
  database: TDatabase,
  input: {
    row: TInboundInsert;
    xml: TInboundArtifact | null;
    acknowledgement: TInboundArtifact | null;
    retainUntil: Date;
    followUp?: { jobs: (inboundDocumentId: string) => TAnyJobRequest[]; enqueue: TEnqueue };
  },
): Promise<{ duplicate: true } | ({ duplicate: false } & TInboundRecorded)> {
  const id = randomUUID();
  try {
    return await inPoolTransaction(sqlPoolOf(database), async (sql) => {
      const { row } = input;
      const xmlArtifact =
        input.xml === null ? null : await insertArtifact(sql, row, input.xml, input.retainUntil);
      const acknowledgementArtifact =
        input.acknowledgement === null
          ? null
          : await insertArtifact(sql, row, input.acknowledgement, input.retainUntil);
      try {
        await sql.query(
          `INSERT INTO inbound_documents (id, tenant_id, environment, kind, status, not_received_code, not_received_reason,
             issuer_rnc, issuer_name, buyer_rnc, encf, ecf_type, issue_date, total_amount, decision, decision_reason,
             decided_at_text, document_id, correspondence, file_name, xml_artifact_id, acknowledgement_artifact_id,
             signer, source_address, received_at, approval_deadline)
           VALUES ($1::uuid, $2::uuid, $3::"Environment", $4::"InboundKind", $5::"InboundStatus", $6::smallint, $7,
             $8, $9, $10, $11, $12::smallint, $13::date, $14::numeric, $15, $16,
             $17, $18::uuid, $19::jsonb, $20, $21::uuid, $22::uuid,
             $23::jsonb, $24, $25::timestamptz, $26::date)`,
          [
            id,
            row.tenantId,
            row.environment,
            row.kind,
            row.status,
            row.notReceivedCode,
            row.notReceivedReason,
            row.issuerRnc,
            row.issuerName,
            row.buyerRnc,
            row.encf,
            row.ecfType,
            row.issueDate,
            row.totalAmount,
            row.decision,
            row.decisionReason,
            row.decidedAtText,
            row.documentId,
            row.correspondence === null || row.correspondence === undefined
              ? null
              : JSON.stringify(row.correspondence),
            row.fileName,
            xmlArtifact?.id ?? null,
            acknowledgementArtifact?.id ?? null,
            row.signer === null || row.signer === undefined ? null : JSON.stringify(row.signer),
            row.sourceAddress,
            row.receivedAt,
            row.approvalDeadline,
          ],
        );
      } catch (error) {
        if (isReceivedCopyViolation(error)) throw new DuplicateReceived();
        throw error;
      }
      if (input.followUp !== undefined) {
        const jobs = input.followUp.jobs(id);
        if (jobs.length > 0) await input.followUp.enqueue(jobs, { executor: jobExecutorOfSql(sql) });
      }
      return { duplicate: false as const, id, xmlArtifact, acknowledgementArtifact };
    });
  } catch (error) {
    if (error instanceof DuplicateReceived) return { duplicate: true };
    throw error;
  }
}

function isReceivedCopyViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, constraint } = error as { code?: unknown; constraint?: unknown };
  return code === '23505' && constraint === 'inbound_documents_one_received';
}

async function insertArtifact(
  sql: TSql,
  row: TInboundInsert,
  artifact: TInboundArtifact,
  retainUntil: Date,
): Promise<{ id: string; sha256: string }> {
  const data = artifactData({
    tenantId: row.tenantId,
    documentId: null,
    kind: artifact.kind,
    contentType: artifact.contentType,
    content: artifact.content,
    createdAt: row.receivedAt,
  });
  const id = randomUUID();
  await sql.query(
    `INSERT INTO artifacts (id, tenant_id, document_id, kind, content_type, content, sha256, size_bytes, retain_until, created_at)
     VALUES ($1::uuid, $2::uuid, NULL, $3::"ArtifactKind", $4, $5::bytea, $6, $7::int, $8::timestamptz, $9::timestamptz)`,
    [
      id,
      row.tenantId,
      artifact.kind,
      artifact.contentType,
      data.content,
      data.sha256,
      data.sizeBytes,
      retainUntil,
      row.receivedAt,
    ],
  );
  return { id, sha256: data.sha256 };
}

/**
 * Takes one of the day's `bound` slots of compact records for `sourceAddress` (UTC day of `at`), in
 * one statement (concurrent deliveries cannot both take the last slot): true when taken; false when
 * the day's slots are spent, and the delivery is then counted (`dropped`) instead.
 */
export async function claimInboundRefusalSlot(
  database: TDatabase,
  input: { sourceAddress: string; at: Date; bound: number },
): Promise<boolean> {
  const pool = sqlPoolOf(database);
  const key = [input.sourceAddress, input.at];
  const day = `($2::timestamptz AT TIME ZONE 'UTC')::date`;
  await pool.query(
    `INSERT INTO inbound_refusal_days (source_address, day) VALUES ($1, ${day}) ON CONFLICT DO NOTHING`,
    key,
  );
  // The row lock of the UPDATE re-checks `stored < bound` for each concurrent delivery in turn.
  const taken = await pool.query(
    `UPDATE inbound_refusal_days SET stored = stored + 1
      WHERE source_address = $1 AND day = ${day} AND stored < $3::int`,
    [...key, input.bound],
  );
  if ((taken.rowCount ?? 0) > 0) return true;
  await pool.query(
    `UPDATE inbound_refusal_days SET dropped = dropped + 1 WHERE source_address = $1 AND day = ${day}`,
    key,
  );
  return false;
}

/** A compact record of a refused delivery whose signature was not verified (`inbound_refusals`). */
export type TInboundRefusalInsert = {
  tenantId: string;
  environment: Environment;
  kind: 'ecf' | 'commercial_approval';
  notReceivedCode: number | null;
  reason: string | null;
  issuerRnc: string;
  encf: string;
  ecfType: number;
  sha256: string;
  sizeBytes: number;
  sourceAddress: string | null;
  answer: string | null;
  receivedAt: Date;
  retainUntil: Date;
};

/** Inserts a compact record; its id. */
export async function recordInboundRefusal(
  database: TDatabase,
  input: TInboundRefusalInsert,
): Promise<string> {
  const id = randomUUID();
  await sqlPoolOf(database).query(
    `INSERT INTO inbound_refusals (id, tenant_id, environment, kind, not_received_code, reason, issuer_rnc, encf,
       ecf_type, sha256, size_bytes, source_address, answer, received_at, retain_until)
     VALUES ($1::uuid, $2::uuid, $3::"Environment", $4::"InboundKind", $5::smallint, $6, $7, $8,
       $9::smallint, $10, $11::int, $12, $13::bytea, $14::timestamptz, $15::timestamptz)`,
    [
      id,
      input.tenantId,
      input.environment,
      input.kind,
      input.notReceivedCode,
      input.reason,
      input.issuerRnc,
      input.encf,
      input.ecfType,
      input.sha256,
      input.sizeBytes,
      input.sourceAddress,
      input.answer === null ? null : Buffer.from(input.answer, 'utf8'),
      input.receivedAt,
      input.retainUntil,
    ],
  );
  return id;
}

/**
 * Deletes the compact records kept until before `before`, and the per-sender day counters older
 * than `countersBefore` (the purge of the worker's maintenance).
 */
export async function deleteExpiredInboundRefusals(
  database: TDatabase,
  input: { before: Date; countersBefore: Date },
): Promise<{ inboundRefusals: number; inboundRefusalDays: number }> {
  const pool = sqlPoolOf(database);
  const records = await pool.query('DELETE FROM inbound_refusals WHERE retain_until < $1::timestamptz', [
    input.before,
  ]);
  const days = await pool.query(
    `DELETE FROM inbound_refusal_days WHERE day < ($1::timestamptz AT TIME ZONE 'UTC')::date`,
    [input.countersBefore],
  );
  return { inboundRefusals: records.rowCount ?? 0, inboundRefusalDays: days.rowCount ?? 0 };
}
