/**
 * Writes and reads of `commercial_approvals` (the ACECF this tenant signs for a received e-CF) and
 * of what they need of `inbound_documents` and `artifacts`. Every change is a guarded update (the
 * row moves only from the state the step read) committed with what goes with it: the signed ACECF
 * artifact with its row, the dispatch job with the tax authority's acceptance, the evidence with a
 * reconciliation.
 */
import { randomUUID } from 'node:crypto';
import {
  artifactData,
  inPoolTransaction,
  jobExecutorOfSql,
  sqlPoolOf,
  type ArtifactKind,
  type Environment,
  type ReceiverDeliveryStatus,
  type TAnyJobRequest,
  type TDatabase,
  type TEnqueue,
  type TSql,
} from '@ecf/db';

/** A commercial approval as the use-cases read it. */
export type TCommercialApprovalRow = {
  id: string;
  inboundDocumentId: string;
  tenantId: string;
  environment: Environment;
  decision: 'accept' | 'reject';
  approvalDate: Date;
  rejectionReason: string | null;
  acecfArtifactId: string | null;
  taxauthStatus: 'pending' | 'accepted' | 'rejected' | 'uncertain' | 'not_applicable';
  taxauthAnswer: unknown;
  targetSource: 'directory' | 'request' | 'not_applicable' | 'none';
  targetUrl: string | null;
  authenticationUrl: string | null;
  dispatchStatus: ReceiverDeliveryStatus;
  dispatchAttempts: number;
  nextAttemptAt: Date | null;
  lastResponse: unknown;
  reconciliation: unknown;
  reconciledAt: Date | null;
  supersededAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
};

type TRecord = {
  id: string;
  inbound_document_id: string;
  tenant_id: string;
  environment: Environment;
  decision: 'accept' | 'reject';
  approval_date: Date;
  rejection_reason: string | null;
  acecf_artifact_id: string | null;
  taxauth_status: TCommercialApprovalRow['taxauthStatus'];
  taxauth_answer: unknown;
  target_source: TCommercialApprovalRow['targetSource'];
  target_url: string | null;
  authentication_url: string | null;
  dispatch_status: ReceiverDeliveryStatus;
  dispatch_attempts: number;
  next_attempt_at: Date | null;
  last_response: unknown;
  reconciliation: unknown;
  reconciled_at: Date | null;
  superseded_at: Date | null;
  created_at: Date;
  updated_at: Date;
};

const COLUMNS = `id, inbound_document_id, tenant_id, environment, decision, approval_date, rejection_reason,
  acecf_artifact_id, taxauth_status, taxauth_answer, target_source, target_url, authentication_url,
  dispatch_status, dispatch_attempts, next_attempt_at, last_response, reconciliation, reconciled_at,
  superseded_at, created_at, updated_at`;

function rowOf(record: TRecord): TCommercialApprovalRow {
  return {
    id: record.id,
    inboundDocumentId: record.inbound_document_id,
    tenantId: record.tenant_id,
    environment: record.environment,
    decision: record.decision,
    approvalDate: record.approval_date,
    rejectionReason: record.rejection_reason,
    acecfArtifactId: record.acecf_artifact_id,
    taxauthStatus: record.taxauth_status,
    taxauthAnswer: record.taxauth_answer,
    targetSource: record.target_source,
    targetUrl: record.target_url,
    authenticationUrl: record.authentication_url,
    dispatchStatus: record.dispatch_status,
    dispatchAttempts: record.dispatch_attempts,
    nextAttemptAt: record.next_attempt_at,
    lastResponse: record.last_response,
    reconciliation: record.reconciliation,
    reconciledAt: record.reconciled_at,
    supersededAt: record.superseded_at,
    createdAt: record.created_at,
    updatedAt: record.updated_at,
  };
}

/** A received e-CF as a commercial approval needs it, with the bytes its supplier sent. */
export type TInboundEcfForApproval = {
  id: string;
  tenantId: string;
  environment: Environment;
  kind: 'ecf' | 'commercial_approval';
  status: string;
  issuerRnc: string;
  buyerRnc: string | null;
  encf: string;
  ecfType: number;
  /** `FechaEmision` as `YYYY-MM-DD`, or null. */
  issueDate: string | null;
  /** `MontoTotal` as decimal text, or null. */
  totalAmount: string | null;
  taxauthValidity: unknown;
  /** The received XML as text, or null when no copy was kept. */
  xml: string | null;
};

/** A tenant's received document (any kind) in one environment; null when none. */
export async function findInboundForApproval(
  database: TDatabase,
  input: { tenantId: string; environment: Environment; inboundDocumentId: string },
): Promise<TInboundEcfForApproval | null> {
  const { rows } = await sqlPoolOf(database).query<{
    id: string;
    tenant_id: string;
    environment: Environment;
    kind: 'ecf' | 'commercial_approval';
    status: string;
    issuer_rnc: string;
    buyer_rnc: string | null;
    encf: string;
    ecf_type: number;
    issue_date: string | null;
    total_amount: string | null;
    taxauth_validity: unknown;
    content: Buffer | null;
  }>(
    `SELECT d.id, d.tenant_id, d.environment, d.kind, d.status, d.issuer_rnc, d.buyer_rnc, d.encf, d.ecf_type,
       to_char(d.issue_date, 'YYYY-MM-DD') AS issue_date, d.total_amount::text AS total_amount, d.taxauth_validity,
       a.content
     FROM inbound_documents d LEFT JOIN artifacts a ON a.id = d.xml_artifact_id
     WHERE d.id = $1::uuid AND d.tenant_id = $2::uuid AND d.environment = $3::"Environment"`,
    [input.inboundDocumentId, input.tenantId, input.environment],
  );
  const row = rows[0];
  if (row === undefined) return null;
  return {
    id: row.id,
    tenantId: row.tenant_id,
    environment: row.environment,
    kind: row.kind,
    status: row.status,
    issuerRnc: row.issuer_rnc,
    buyerRnc: row.buyer_rnc,
    encf: row.encf,
    ecfType: row.ecf_type,
    issueDate: row.issue_date,
    totalAmount: row.total_amount,
    taxauthValidity: row.taxauth_validity,
    xml: row.content === null ? null : row.content.toString('utf8'),
  };
}

/** The approval of a received e-CF that is not superseded (at most one: a unique index), or null. */
export async function findActiveCommercialApproval(
  database: TDatabase,
  inboundDocumentId: string,
): Promise<TCommercialApprovalRow | null> {
  const { rows } = await sqlPoolOf(database).query<TRecord>(
    `SELECT ${COLUMNS} FROM commercial_approvals WHERE inbound_document_id = $1::uuid AND superseded_at IS NULL`,
    [inboundDocumentId],
  );
  return rows[0] === undefined ? null : rowOf(rows[0]);
}

/** The latest approval of a received e-CF (active first, else the last superseded one), or null. */
export async function findLatestCommercialApproval(
  database: TDatabase,
  inboundDocumentId: string,
): Promise<TCommercialApprovalRow | null> {
  const { rows } = await sqlPoolOf(database).query<TRecord>(
    `SELECT ${COLUMNS} FROM commercial_approvals WHERE inbound_document_id = $1::uuid
     ORDER BY (superseded_at IS NULL) DESC, created_at DESC, id DESC LIMIT 1`,
    [inboundDocumentId],
  );
  return rows[0] === undefined ? null : rowOf(rows[0]);
}

/** An approval by id with its signed ACECF (null when the artifact is missing). */
export async function loadCommercialApprovalForDispatch(
  database: TDatabase,
  commercialApprovalId: string,
): Promise<
  | (TCommercialApprovalRow & { acecfXml: string | null; tenantRnc: string; encf: string; issuerRnc: string })
  | null
> {
  const { rows } = await sqlPoolOf(database).query<
    TRecord & { content: Buffer | null; tenant_rnc: string; encf: string; issuer_rnc: string }
  >(
    `SELECT ${COLUMNS.split(',')
      .map((column) => `c.${column.trim()}`)
      .join(', ')}, a.content, t.rnc AS tenant_rnc, d.encf, d.issuer_rnc
     FROM commercial_approvals c
     JOIN tenants t ON t.id = c.tenant_id
     JOIN inbound_documents d ON d.id = c.inbound_document_id
     LEFT JOIN artifacts a ON a.id = c.acecf_artifact_id
     WHERE c.id = $1::uuid`,
    [commercialApprovalId],
  );
  const row = rows[0];
  if (row === undefined) return null;
  return {
    ...rowOf(row),
    acecfXml: row.content === null ? null : row.content.toString('utf8'),
    tenantRnc: row.tenant_rnc,
    encf: row.encf,
    issuerRnc: row.issuer_rnc,
  };
}

/** An artifact kept at least until `retainUntil` (received XML and ACECF: 10 years), write-once. */
async function insertRetainedArtifact(
  sql: TSql,
  input: {
    tenantId: string;
    kind: ArtifactKind;
    contentType: string;
    content: string;
    at: Date;
    retainUntil: Date | null;
  },
): Promise<{ id: string; sha256: string }> {
  const data = artifactData({
    tenantId: input.tenantId,
    documentId: null,
    kind: input.kind,
    contentType: input.contentType,
    content: input.content,
    createdAt: input.at,
  });
  const id = randomUUID();
  await sql.query(
    `INSERT INTO artifacts (id, tenant_id, document_id, kind, content_type, content, sha256, size_bytes, retain_until, created_at)
     VALUES ($1::uuid, $2::uuid, NULL, $3::"ArtifactKind", $4, $5::bytea, $6, $7::int, $8::timestamptz, $9::timestamptz)`,
    [
      id,
      input.tenantId,
      input.kind,
      input.contentType,
      data.content,
      data.sha256,
      data.sizeBytes,
      input.retainUntil,
      input.at,
    ],
  );
  return { id, sha256: data.sha256 };
}

/**
 * The signed ACECF (artifact `commercial_approval`, kept until `retainUntil`) and its approval row,
 * `taxauth_status` `pending` (on its way to the tax authority), in one transaction. A concurrent
 * approval of the same e-CF loses on the unique index of active approvals (a unique violation).
 */
export async function insertCommercialApproval(
  database: TDatabase,
  input: {
    tenantId: string;
    environment: Environment;
    inboundDocumentId: string;
    decision: 'accept' | 'reject';
    approvalDate: Date;
    rejectionReason: string | null;
    signedXml: string;
    targetSource: TCommercialApprovalRow['targetSource'];
    targetUrl: string | null;
    authenticationUrl: string | null;
    at: Date;
    retainUntil: Date;
  },
): Promise<TCommercialApprovalRow> {
  return inPoolTransaction(sqlPoolOf(database), async (sql) => {
    const artifact = await insertRetainedArtifact(sql, {
      tenantId: input.tenantId,
      kind: 'commercial_approval',
      contentType: 'application/xml',
      content: input.signedXml,
      at: input.at,
      retainUntil: input.retainUntil,
    });
    const { rows } = await sql.query<TRecord>(
      `INSERT INTO commercial_approvals (id, inbound_document_id, tenant_id, environment, decision, approval_date,
         rejection_reason, acecf_artifact_id, taxauth_status, target_source, target_url, authentication_url,
         dispatch_status, created_at, updated_at)
       VALUES ($1::uuid, $2::uuid, $3::uuid, $4::"Environment", $5::"CommercialDecision", $6::timestamptz, $7, $8::uuid,
         'pending', $9, $10, $11, 'pending', $12::timestamptz, $12::timestamptz)
       RETURNING ${COLUMNS}`,
      [
        randomUUID(),
        input.inboundDocumentId,
        input.tenantId,
        input.environment,
        input.decision,
        input.approvalDate,
        input.rejectionReason,
        artifact.id,
        input.targetSource,
        input.targetUrl,
        input.authenticationUrl,
        input.at,
      ],
    );
    const row = rows[0];
    if (row === undefined) throw new Error('insertCommercialApproval: no row returned');
    return rowOf(row);
  });
}

/** Columns a step of an approval sets. */
export type TCommercialApprovalColumns = Partial<{
  taxauth_status: TCommercialApprovalRow['taxauthStatus'];
  taxauth_answer: unknown;
  dispatch_status: ReceiverDeliveryStatus;
  dispatch_attempts: number;
  next_attempt_at: Date | null;
  last_response: unknown;
  reconciliation: unknown;
  reconciled_at: Date | null;
  superseded_at: Date | null;
}>;

const COLUMN_TYPES: Record<keyof TCommercialApprovalColumns, string> = {
  taxauth_status: 'text',
  taxauth_answer: 'jsonb',
  dispatch_status: '"ReceiverDeliveryStatus"',
  dispatch_attempts: 'int',
  next_attempt_at: 'timestamptz',
  last_response: 'jsonb',
  reconciliation: 'jsonb',
  reconciled_at: 'timestamptz',
  superseded_at: 'timestamptz',
};

/** The guard of a change: where the step found the row. */
export type TCommercialApprovalGuard = {
  taxauthStatus?: TCommercialApprovalRow['taxauthStatus'];
  dispatchStatus?: ReceiverDeliveryStatus | readonly ReceiverDeliveryStatus[];
  dispatchAttempts?: number;
  unreconciled?: boolean;
  active?: boolean;
};

async function changeOn(
  sql: TSql,
  input: { id: string; from: TCommercialApprovalGuard; set: TCommercialApprovalColumns; at: Date },
): Promise<TCommercialApprovalRow | null> {
  const values: unknown[] = [input.id];
  const parameter = (value: unknown, type: string): string => {
    values.push(value);
    return `$${values.length}::${type}`;
  };
  const assignments = Object.entries(input.set).map(([column, value]) => {
    const type = COLUMN_TYPES[column as keyof TCommercialApprovalColumns];
    const encoded = type === 'jsonb' && value !== null ? JSON.stringify(value) : value;
    return `${column} = ${parameter(encoded, type)}`;
  });
  assignments.push(`updated_at = ${parameter(input.at, 'timestamptz')}`);
  const guard = ['id = $1::uuid'];
  const { from } = input;
  if (from.taxauthStatus !== undefined)
    guard.push(`taxauth_status = ${parameter(from.taxauthStatus, 'text')}`);
  if (from.dispatchStatus !== undefined)
    guard.push(`dispatch_status::text = ANY(${parameter([from.dispatchStatus].flat(), 'text[]')})`);
  if (from.dispatchAttempts !== undefined)
    guard.push(`dispatch_attempts = ${parameter(from.dispatchAttempts, 'int')}`);
  if (from.unreconciled === true) guard.push('reconciled_at IS NULL');
  if (from.active === true) guard.push('superseded_at IS NULL');
  const { rows } = await sql.query<TRecord>(
    `UPDATE commercial_approvals SET ${assignments.join(', ')} WHERE ${guard.join(' AND ')} RETURNING ${COLUMNS}`,
    values,
  );
  return rows[0] === undefined ? null : rowOf(rows[0]);
}

/**
 * A guarded change of an approval (null when the row was no longer where the step found it), and
 * when it moved, its jobs on the same transaction (the dispatch outbox).
 */
export async function changeCommercialApproval(
  database: TDatabase,
  input: {
    id: string;
    from: TCommercialApprovalGuard;
    set: TCommercialApprovalColumns;
    at: Date;
    followUp?: { jobs: TAnyJobRequest[]; enqueue: TEnqueue };
  },
): Promise<TCommercialApprovalRow | null> {
  const pool = sqlPoolOf(database);
  const { followUp } = input;
  if (followUp === undefined || followUp.jobs.length === 0) return changeOn(pool, input);
  return inPoolTransaction(pool, async (sql) => {
    const changed = await changeOn(sql, input);
    if (changed !== null) await followUp.enqueue(followUp.jobs, { executor: jobExecutorOfSql(sql) });
    return changed;
  });
}

/**
 * Reconciliation of an `uncertain` approval: the evidence stored write-once (artifact `evidence`,
 * kept as long as the ACECF) and the guarded change, in one transaction; null when the row was no
 * longer uncertain and unreconciled. `reconciliation(artifact)` builds the stored record.
 */
export async function reconcileCommercialApprovalRow(
  database: TDatabase,
  input: {
    id: string;
    tenantId: string;
    from: TCommercialApprovalGuard;
    set: TCommercialApprovalColumns;
    evidence: { content: string; contentType: string } | null;
    reconciliation: (artifact: { id: string; sha256: string } | null) => unknown;
    at: Date;
    retainUntil: Date;
    followUp?: { jobs: TAnyJobRequest[]; enqueue: TEnqueue };
  },
): Promise<TCommercialApprovalRow | null> {
  return inPoolTransaction(sqlPoolOf(database), async (sql) => {
    const locked = await sql.query(
      'SELECT 1 FROM commercial_approvals WHERE id = $1::uuid AND reconciled_at IS NULL FOR UPDATE',
      [input.id],
    );
    if ((locked.rowCount ?? 0) === 0) return null;
    const artifact =
      input.evidence === null
        ? null
        : await insertRetainedArtifact(sql, {
            tenantId: input.tenantId,
            kind: 'evidence',
            contentType: input.evidence.contentType,
            content: input.evidence.content,
            at: input.at,
            retainUntil: input.retainUntil,
          });
    const changed = await changeOn(sql, {
      id: input.id,
      from: { ...input.from, unreconciled: true },
      set: { ...input.set, reconciliation: input.reconciliation(artifact), reconciled_at: input.at },
      at: input.at,
    });
    if (changed === null) throw new ReconciliationRaced();
    if (input.followUp !== undefined && input.followUp.jobs.length > 0)
      await input.followUp.enqueue(input.followUp.jobs, { executor: jobExecutorOfSql(sql) });
    return changed;
  }).catch((error: unknown) => {
    if (error instanceof ReconciliationRaced) return null;
    throw error;
  });
}

class ReconciliationRaced extends Error {}

/** The SHA-256 of a stored artifact (a reconciliation's evidence), or null. */
export async function findArtifactContent(
  database: TDatabase,
  input: { tenantId: string; artifactId: string },
): Promise<{ content: Buffer; sha256: string } | null> {
  const { rows } = await sqlPoolOf(database).query<{ content: Buffer; sha256: string }>(
    'SELECT content, sha256 FROM artifacts WHERE id = $1::uuid AND tenant_id = $2::uuid',
    [input.artifactId, input.tenantId],
  );
  return rows[0] ?? null;
}
