/**
 * Certification cases (docs/certification.md): the open case of an account, the steps it completed
 * (live completions; a restart revokes them), the attestations people recorded, and the uploaded
 * sets. A change of a case's state or step is one statement whose trigger writes
 * `certification.state_changed` (migration 0016).
 */
import {
  inPoolTransaction,
  sqlPoolOf,
  type CertificationCaseState,
  type CertificationSetKind,
  type CertificationSetSource,
  type CertificationStep,
  type Prisma,
  type ProductionState,
  type TDatabase,
  type TSql,
} from '@ecf/db';
import { ENCF_NUMBER } from '../statements.ts';

export type TCertificationCaseRow = {
  id: string;
  tenantId: string;
  state: CertificationCaseState;
  step: CertificationStep;
  testSetId: string | null;
  officialSetRef: string | null;
  /** What the Partner declared at creation (null, `ecfTypes` empty, when not given). */
  ecfTypes: string[];
  b2bSimulation: boolean | null;
  notes: string | null;
  actorRef: string | null;
  version: number;
  createdAt: Date;
  updatedAt: Date;
  approvedAt: Date | null;
  closedAt: Date | null;
};

export type TStepCompletionRow = {
  step: CertificationStep;
  source: string;
  reference: string | null;
  completedAt: Date;
};

export type TAttestationRow = {
  id: string;
  caseId: string;
  step: CertificationStep;
  occurredAt: Date;
  actorRef: string | null;
  notes: string | null;
  evidenceRefs: string[];
  recordedBy: string;
  createdAt: Date;
};

export type TCertificationSetRow = {
  id: string;
  tenantId: string;
  kind: CertificationSetKind;
  source: CertificationSetSource;
  rnc: string;
  sha256: string;
  rows: Prisma.JsonValue;
  rowCount: number;
  createdAt: Date;
};

const CASE_COLUMNS = `id, tenant_id AS "tenantId", state, step, test_set_id AS "testSetId",
  official_set_ref AS "officialSetRef", COALESCE(ecf_types, '{}') AS "ecfTypes",
  b2b_simulation AS "b2bSimulation", notes, actor_ref AS "actorRef", version, created_at AS "createdAt", updated_at AS "updatedAt",
  approved_at AS "approvedAt", closed_at AS "closedAt"`;

const SET_COLUMNS = `id, tenant_id AS "tenantId", kind, source, rnc, sha256, rows, row_count AS "rowCount",
  created_at AS "createdAt"`;

/** The account's open case (any state but `closed`), or null. */
export async function findOpenCertificationCase(
  database: TDatabase,
  tenantId: string,
  sql: TSql = sqlPoolOf(database),
): Promise<TCertificationCaseRow | null> {
  const result = await sql.query<TCertificationCaseRow>(
    `SELECT ${CASE_COLUMNS} FROM certification_cases WHERE tenant_id = $1 AND state <> 'closed'`,
    [tenantId],
  );
  return result.rows[0] ?? null;
}

/** A case of the account by id (closed ones included), or null. */
export async function findCertificationCase(
  database: TDatabase,
  input: { tenantId: string; caseId: string },
): Promise<TCertificationCaseRow | null> {
  const result = await sqlPoolOf(database).query<TCertificationCaseRow>(
    `SELECT ${CASE_COLUMNS} FROM certification_cases WHERE tenant_id = $1 AND id = $2`,
    [input.tenantId, input.caseId],
  );
  return result.rows[0] ?? null;
}

/**
 * The account's open case, created when it has none. Two callers racing create one case: the
 * partial unique index `certification_cases_one_open` lets one insert win, the other reads it.
 */
export async function ensureOpenCertificationCase(
  database: TDatabase,
  input: {
    tenantId: string;
    testSetId?: string | null;
    officialSetRef?: string | null;
    /** The Partner's declarations (`ecfTypes`, `b2bSimulation`, `notes`, `actorRef`). */
    declared?: {
      ecfTypes?: readonly string[];
      b2bSimulation?: boolean | null;
      notes?: string | null;
      actorRef?: string | null;
    };
  },
): Promise<{ case: TCertificationCaseRow; created: boolean }> {
  const pool = sqlPoolOf(database);
  const declared = input.declared ?? {};
  const inserted = await pool.query<TCertificationCaseRow>(
    `INSERT INTO certification_cases
       (id, tenant_id, test_set_id, official_set_ref, ecf_types, b2b_simulation, notes, actor_ref)
     VALUES (gen_random_uuid(), $1, $2, $3, $4::text[], $5, $6, $7)
     ON CONFLICT (tenant_id) WHERE state <> 'closed' DO NOTHING
     RETURNING ${CASE_COLUMNS}`,
    [
      input.tenantId,
      input.testSetId ?? null,
      input.officialSetRef ?? null,
      [...(declared.ecfTypes ?? [])],
      declared.b2bSimulation ?? null,
      declared.notes ?? null,
      declared.actorRef ?? null,
    ],
  );
  const created = inserted.rows[0];
  if (created !== undefined) return { case: created, created: true };
  const open = await findOpenCertificationCase(database, input.tenantId);
  if (open === null) throw new Error(`tenant ${input.tenantId}: no open certification case after insert`);
  return { case: open, created: false };
}

/** The live completions of a case, by step. */
export async function findStepCompletions(
  database: TDatabase,
  caseId: string,
  sql: TSql = sqlPoolOf(database),
): Promise<TStepCompletionRow[]> {
  const result = await sql.query<TStepCompletionRow>(
    `SELECT step, source, reference, completed_at AS "completedAt"
       FROM certification_step_completions WHERE case_id = $1 AND revoked_at IS NULL ORDER BY completed_at, id`,
    [caseId],
  );
  return result.rows;
}

/**
 * Records completions and revocations of a case's steps and moves the case to what follows from
 * them, in ONE transaction under the case's row lock: `step` becomes `nextStep(completed)` and
 * `state` what `decide` says. Completing a step already complete is a no-op (the partial unique
 * index). Returns the case after the change (or as it was when nothing changed).
 */
export async function changeCertificationCase(
  database: TDatabase,
  input: {
    caseId: string;
    complete?: ReadonlyArray<{ step: CertificationStep; source: string; reference?: string | null }>;
    revoke?: readonly CertificationStep[];
    now: Date;
    /** The case's next step and state from its live completions and its current row. */
    decide: (
      current: TCertificationCaseRow,
      completed: ReadonlySet<CertificationStep>,
    ) => {
      step: CertificationStep;
      state: CertificationCaseState;
      approvedAt?: Date | null;
      closedAt?: Date | null;
      testSetId?: string | null;
      officialSetRef?: string | null;
    };
    /** The caller's transaction (the change then commits with the caller's other writes). */
    sql?: TSql;
  },
): Promise<TCertificationCaseRow> {
  const work = async (sql: TSql): Promise<TCertificationCaseRow> => {
    const locked = await sql.query<TCertificationCaseRow>(
      `SELECT ${CASE_COLUMNS} FROM certification_cases WHERE id = $1 FOR UPDATE`,
      [input.caseId],
    );
    const current = locked.rows[0];
    if (current === undefined) throw new Error(`certification case ${input.caseId} not found`);
    if ((input.revoke ?? []).length > 0) {
      await sql.query(
        `UPDATE certification_step_completions SET revoked_at = $3
          WHERE case_id = $1 AND step = ANY($2::"CertificationStep"[]) AND revoked_at IS NULL`,
        [input.caseId, input.revoke, input.now],
      );
    }
    for (const completion of input.complete ?? []) {
      await sql.query(
        `INSERT INTO certification_step_completions (case_id, step, source, reference, completed_at)
         VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (case_id, step) WHERE revoked_at IS NULL DO NOTHING`,
        [input.caseId, completion.step, completion.source, completion.reference ?? null, input.now],
      );
    }
    const completions = await findStepCompletions(database, input.caseId, sql);
    const decided = input.decide(current, new Set(completions.map((completion) => completion.step)));
    const unchanged =
      decided.step === current.step &&
      decided.state === current.state &&
      (decided.approvedAt === undefined || decided.approvedAt === current.approvedAt) &&
      (decided.closedAt === undefined || decided.closedAt === current.closedAt) &&
      (decided.testSetId === undefined || decided.testSetId === current.testSetId) &&
      (decided.officialSetRef === undefined || decided.officialSetRef === current.officialSetRef);
    if (unchanged) return current;
    const updated = await sql.query<TCertificationCaseRow>(
      `UPDATE certification_cases
          SET step = $2, state = $3, version = version + 1, updated_at = $4,
              approved_at = CASE WHEN $5::boolean THEN $6::timestamptz ELSE approved_at END,
              closed_at = CASE WHEN $7::boolean THEN $8::timestamptz ELSE closed_at END,
              test_set_id = CASE WHEN $9::boolean THEN $10::uuid ELSE test_set_id END,
              official_set_ref = CASE WHEN $11::boolean THEN $12 ELSE official_set_ref END
        WHERE id = $1
        RETURNING ${CASE_COLUMNS}`,
      [
        input.caseId,
        decided.step,
        decided.state,
        input.now,
        decided.approvedAt !== undefined,
        decided.approvedAt ?? null,
        decided.closedAt !== undefined,
        decided.closedAt ?? null,
        decided.testSetId !== undefined,
        decided.testSetId ?? null,
        decided.officialSetRef !== undefined,
        decided.officialSetRef ?? null,
      ],
    );
    return updated.rows[0] as TCertificationCaseRow;
  };
  return input.sql ? work(input.sql) : inPoolTransaction(sqlPoolOf(database), work);
}

/**
 * Runs `work` in one transaction: a certification change whose parts (a run's end and its case's
 * move, production's state and the case's approval) must be seen together or not at all.
 */
export async function inCertificationTransaction<T>(
  database: TDatabase,
  work: (sql: TSql) => Promise<T>,
): Promise<T> {
  return inPoolTransaction(sqlPoolOf(database), work);
}

/** Appends an attestation (the table is append-only). */
export async function insertCertificationAttestation(
  database: TDatabase,
  input: {
    caseId: string;
    tenantId: string;
    step: CertificationStep;
    occurredAt: Date;
    actorRef: string | null;
    notes: string | null;
    evidenceRefs: readonly string[];
    recordedBy: string;
    now: Date;
  },
): Promise<TAttestationRow> {
  const result = await sqlPoolOf(database).query<TAttestationRow>(
    `INSERT INTO certification_attestations
       (id, case_id, tenant_id, step, occurred_at, actor_ref, notes, evidence_refs, recorded_by, created_at)
     VALUES (gen_random_uuid(), $1, $2, $3, $4, $5, $6, $7, $8, $9)
     RETURNING id, case_id AS "caseId", step, occurred_at AS "occurredAt", actor_ref AS "actorRef", notes,
               evidence_refs AS "evidenceRefs", recorded_by AS "recordedBy", created_at AS "createdAt"`,
    [
      input.caseId,
      input.tenantId,
      input.step,
      input.occurredAt,
      input.actorRef,
      input.notes,
      input.evidenceRefs,
      input.recordedBy,
      input.now,
    ],
  );
  return result.rows[0] as TAttestationRow;
}

/** The attestations of a case, oldest first. */
export async function findCertificationAttestations(
  database: TDatabase,
  caseId: string,
): Promise<TAttestationRow[]> {
  const result = await sqlPoolOf(database).query<TAttestationRow>(
    `SELECT id, case_id AS "caseId", step, occurred_at AS "occurredAt", actor_ref AS "actorRef", notes,
            evidence_refs AS "evidenceRefs", recorded_by AS "recordedBy", created_at AS "createdAt"
       FROM certification_attestations WHERE case_id = $1 ORDER BY created_at, id`,
    [caseId],
  );
  return result.rows;
}

/**
 * Stores an uploaded set, or finds the same bytes uploaded before by the account (unique per
 * account, kind and SHA-256): uploading a workbook twice is one set.
 */
export async function storeCertificationSet(
  database: TDatabase,
  input: {
    tenantId: string;
    kind: CertificationSetKind;
    source: CertificationSetSource;
    rnc: string;
    sha256: string;
    content: Uint8Array;
    rows: unknown;
    rowCount: number;
    now: Date;
  },
): Promise<TCertificationSetRow> {
  const result = await sqlPoolOf(database).query<TCertificationSetRow>(
    `INSERT INTO certification_sets (id, tenant_id, kind, source, rnc, sha256, content, rows, row_count, created_at)
     VALUES (gen_random_uuid(), $1, $2, $3, $4, $5, $6, $7::jsonb, $8, $9)
     ON CONFLICT (tenant_id, kind, sha256) DO UPDATE SET sha256 = EXCLUDED.sha256
     RETURNING ${SET_COLUMNS}`,
    [
      input.tenantId,
      input.kind,
      input.source,
      input.rnc,
      input.sha256,
      Buffer.from(input.content.buffer, input.content.byteOffset, input.content.byteLength),
      JSON.stringify(input.rows),
      input.rowCount,
      input.now,
    ],
  );
  return result.rows[0] as TCertificationSetRow;
}

/** A set of the account by id, or null. */
export async function findCertificationSet(
  database: TDatabase,
  input: { tenantId: string; setId: string },
): Promise<TCertificationSetRow | null> {
  const result = await sqlPoolOf(database).query<TCertificationSetRow>(
    `SELECT ${SET_COLUMNS} FROM certification_sets WHERE tenant_id = $1 AND id = $2`,
    [input.tenantId, input.setId],
  );
  return result.rows[0] ?? null;
}

/** The account's sets of a kind, newest first (without their rows). */
export async function findCertificationSets(
  database: TDatabase,
  input: { tenantId: string; kind?: CertificationSetKind },
): Promise<Array<Omit<TCertificationSetRow, 'rows'>>> {
  const result = await sqlPoolOf(database).query<Omit<TCertificationSetRow, 'rows'>>(
    `SELECT id, tenant_id AS "tenantId", kind, source, rnc, sha256, row_count AS "rowCount", created_at AS "createdAt"
       FROM certification_sets WHERE tenant_id = $1 AND ($2::"CertificationSetKind" IS NULL OR kind = $2)
      ORDER BY created_at DESC, id`,
    [input.tenantId, input.kind ?? null],
  );
  return result.rows;
}

/** The bytes of a set as uploaded. */
export async function readCertificationSetContent(database: TDatabase, setId: string): Promise<Buffer> {
  const result = await sqlPoolOf(database).query<{ content: Buffer }>(
    `SELECT content FROM certification_sets WHERE id = $1`,
    [setId],
  );
  const row = result.rows[0];
  if (row === undefined) throw new Error(`certification set ${setId} not found`);
  return row.content;
}

/** Which of `encfs` this account already has as documents in an environment (sent or on their way). */
export async function findTakenEncfs(
  database: TDatabase,
  input: { tenantId: string; environment: 'CerteCF' | 'TesteCF' | 'eCF'; encfs: readonly string[] },
): Promise<string[]> {
  if (input.encfs.length === 0) return [];
  const result = await sqlPoolOf(database).query<{ encf: string }>(
    `SELECT encf FROM documents WHERE tenant_id = $1 AND environment = $2::"Environment" AND encf = ANY($3::text[])
      ORDER BY encf`,
    [input.tenantId, input.environment, input.encfs],
  );
  return result.rows.map((row) => row.encf);
}

/** The highest sequence number this account used per e-CF type in an environment (documents, registered ranges aside). */
export async function findHighestSequencePerType(
  database: TDatabase,
  input: { tenantId: string; environment: 'CerteCF' | 'TesteCF' | 'eCF' },
): Promise<Map<number, number>> {
  const result = await sqlPoolOf(database).query<{ type: number; highest: string }>(
    `SELECT type, max(${ENCF_NUMBER('encf')})::text AS highest
       FROM documents WHERE tenant_id = $1 AND environment = $2::"Environment" GROUP BY type`,
    [input.tenantId, input.environment],
  );
  return new Map(result.rows.map((row) => [row.type, Number(row.highest)]));
}

/**
 * Moves the account's production state from one of `from` to `to` (one guarded statement; the
 * `production.state_changed` event, where a trigger writes it, follows the change). False when the
 * state was not one of `from`.
 */
export async function changeProductionState(
  database: TDatabase,
  input: { tenantId: string; from: readonly ProductionState[]; to: ProductionState; sql?: TSql },
): Promise<boolean> {
  const result = await (input.sql ?? sqlPoolOf(database)).query(
    `UPDATE tenants SET production_state = $3::"ProductionState", updated_at = now()
      WHERE id = $1 AND production_state = ANY($2::"ProductionState"[])`,
    [input.tenantId, input.from, input.to],
  );
  return (result.rowCount ?? 0) > 0;
}

/** An open case the sync looks at, with what it needs to decide. */
export type TCaseToSync = {
  caseId: string;
  tenantId: string;
  rnc: string;
  state: CertificationCaseState;
  step: CertificationStep;
  productionState: ProductionState;
  createdAt: Date;
};

/** The open cases not yet approved (of one account when `tenantId` is given). */
export async function findCasesToSync(
  database: TDatabase,
  input: { tenantId?: string | undefined },
): Promise<TCaseToSync[]> {
  const result = await sqlPoolOf(database).query<TCaseToSync>(
    `SELECT c.id AS "caseId", c.tenant_id AS "tenantId", t.rnc, c.state, c.step,
            t.production_state AS "productionState", c.created_at AS "createdAt"
       FROM certification_cases c JOIN tenants t ON t.id = c.tenant_id
      WHERE c.state IN ('in_progress', 'failed') AND ($1::uuid IS NULL OR c.tenant_id = $1)
      ORDER BY c.created_at`,
    [input.tenantId ?? null],
  );
  return result.rows;
}

/**
 * The first e-CF received (`received`) and the first ACECF received in CerteCF by the account since
 * `since`: the tax authority's reception tests (CerteCF has no other senders).
 */
export async function findReceptionsInCerteCF(
  database: TDatabase,
  input: { tenantId: string; since: Date },
): Promise<{ ecf: string | null; commercialApproval: string | null }> {
  const result = await sqlPoolOf(database).query<{ kind: string; id: string }>(
    `SELECT DISTINCT ON (kind) kind::text AS kind, id FROM inbound_documents
      WHERE tenant_id = $1 AND environment = 'CerteCF' AND status = 'received' AND received_at >= $2
      ORDER BY kind, received_at`,
    [input.tenantId, input.since],
  );
  const idOf = (kind: string): string | null => result.rows.find((row) => row.kind === kind)?.id ?? null;
  return { ecf: idOf('ecf'), commercialApproval: idOf('commercial_approval') };
}

/** Each account's open case, else its last closed one (one query for a page of accounts). */
export async function findCertificationSummaryRows(
  database: TDatabase,
  tenantIds: readonly string[],
): Promise<TCertificationCaseRow[]> {
  if (tenantIds.length === 0) return [];
  const result = await sqlPoolOf(database).query<TCertificationCaseRow>(
    `SELECT DISTINCT ON (tenant_id) ${CASE_COLUMNS} FROM certification_cases
      WHERE tenant_id = ANY($1::uuid[])
      ORDER BY tenant_id, (state = 'closed'), created_at DESC`,
    [tenantIds],
  );
  return result.rows;
}

/** The Partner that manages an account, or null for a direct account. */
export async function findManagingPartnerId(database: TDatabase, tenantId: string): Promise<string | null> {
  const result = await sqlPoolOf(database).query<{ partnerId: string | null }>(
    `SELECT partner_id AS "partnerId" FROM tenants WHERE id = $1`,
    [tenantId],
  );
  return result.rows[0]?.partnerId ?? null;
}
