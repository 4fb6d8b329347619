/**
 * Certification runs and their items, and the commercial approvals sends of the tests
 * (docs/certification.md). Both are driven by a job chain: a job carries the generation it may
 * advance; `claimAdvance` moves the generation on and, in the same transaction, enqueues the safety
 * job of the next generation after the lease, so a worker that dies mid-step is followed by that job
 * and a duplicate or stale job finds its generation gone and does nothing.
 */
import {
  inPoolTransaction,
  jobExecutorOfSql,
  sqlPoolOf,
  type CertificationApprovalItemState,
  type CertificationItemState,
  type CertificationPart,
  type CertificationRunState,
  type CertificationSetSource,
  type Prisma,
  type TDatabase,
  type TEnqueue,
  type TSql,
} from '@ecf/db';

export type TCertificationRunRow = {
  id: string;
  tenantId: string;
  caseId: string;
  setId: string | null;
  part: CertificationPart;
  source: CertificationSetSource;
  state: CertificationRunState;
  idempotencyKey: string | null;
  requestFingerprint: string | null;
  failure: Prisma.JsonValue;
  correlationId: string | null;
  createdAt: Date;
  updatedAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
  replacedAt: Date | null;
  evidenceArtifactId: string | null;
  advanceGeneration: number;
  progressedAt: Date;
};

export type TCertificationItemRow = {
  runId: string;
  position: number;
  sheetRow: number | null;
  caseRef: string | null;
  type: number;
  encf: string;
  dependsOn: string | null;
  document: Prisma.JsonValue;
  rfce: Prisma.JsonValue;
  documentId: string | null;
  state: CertificationItemState;
  detail: Prisma.JsonValue;
  updatedAt: Date;
};

/** An item with its document's current state (null until issued). */
export type TCertificationItemView = Omit<TCertificationItemRow, 'document' | 'rfce'> & {
  documentStatus: string | null;
  trackId: string | null;
  taxauthMessages: Prisma.JsonValue;
  lastError: Prisma.JsonValue;
};

export type TNewCertificationItem = {
  position: number;
  sheetRow: number | null;
  caseRef: string | null;
  type: number;
  encf: string;
  dependsOn: string | null;
  document: unknown;
  rfce: unknown;
};

const RUN_COLUMNS = `id, tenant_id AS "tenantId", case_id AS "caseId", set_id AS "setId", part, source, state,
  idempotency_key AS "idempotencyKey", request_fingerprint AS "requestFingerprint", failure,
  correlation_id AS "correlationId", created_at AS "createdAt", updated_at AS "updatedAt",
  started_at AS "startedAt", finished_at AS "finishedAt", replaced_at AS "replacedAt",
  evidence_artifact_id AS "evidenceArtifactId", advance_generation AS "advanceGeneration",
  progressed_at AS "progressedAt"`;

const ITEM_VIEW_COLUMNS = `i.run_id AS "runId", i.position, i.sheet_row AS "sheetRow", i.case_ref AS "caseRef", i.type,
  i.encf, i.depends_on AS "dependsOn", i.document_id AS "documentId", i.state, i.detail, i.updated_at AS "updatedAt",
  d.status::text AS "documentStatus", d.track_id AS "trackId", d.taxauth_messages AS "taxauthMessages",
  d.last_error AS "lastError"`;

/** A PostgreSQL unique violation on the run's (tenant, Idempotency-Key). */
export function isIdempotencyKeyTaken(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '23505';
}

/**
 * Stores a run with its items and its first `certification.advance` job in ONE transaction: no run
 * without its job, no job without its run.
 */
export async function insertCertificationRun(
  database: TDatabase,
  input: {
    tenantId: string;
    caseId: string;
    setId: string | null;
    part: CertificationPart;
    source: CertificationSetSource;
    idempotencyKey: string | null;
    requestFingerprint: string | null;
    correlationId: string | null;
    items: readonly TNewCertificationItem[];
    now: Date;
    enqueue: TEnqueue;
  },
): Promise<TCertificationRunRow> {
  return inPoolTransaction(sqlPoolOf(database), async (sql) => {
    const inserted = await sql.query<TCertificationRunRow>(
      `INSERT INTO certification_runs
         (id, tenant_id, case_id, set_id, part, source, idempotency_key, request_fingerprint, correlation_id,
          created_at, updated_at, progressed_at)
       VALUES (gen_random_uuid(), $1, $2, $3, $4, $5, $6, $7, $8, $9, $9, $9)
       RETURNING ${RUN_COLUMNS}`,
      [
        input.tenantId,
        input.caseId,
        input.setId,
        input.part,
        input.source,
        input.idempotencyKey,
        input.requestFingerprint,
        input.correlationId,
        input.now,
      ],
    );
    const run = inserted.rows[0] as TCertificationRunRow;
    await sql.query(
      `INSERT INTO certification_run_items
         (run_id, position, sheet_row, case_ref, type, encf, depends_on, document, rfce, updated_at)
       SELECT $1, item.position, item.sheet_row, item.case_ref, item.type, item.encf, item.depends_on,
              item.document, item.rfce, $3
         FROM jsonb_to_recordset($2::jsonb) AS item(position int, sheet_row int, case_ref text, type smallint,
              encf text, depends_on text, document jsonb, rfce jsonb)`,
      [
        run.id,
        JSON.stringify(
          input.items.map((item) => ({
            position: item.position,
            sheet_row: item.sheetRow,
            case_ref: item.caseRef,
            type: item.type,
            encf: item.encf,
            depends_on: item.dependsOn,
            document: item.document,
            rfce: item.rfce ?? null,
          })),
        ),
        input.now,
      ],
    );
    await input.enqueue([{ name: 'certification.advance', payload: { runId: run.id, generation: 0 } }], {
      executor: jobExecutorOfSql(sql),
    });
    return run;
  });
}

/** A run of the account, or null (`tenantId` null: any account, for the worker). */
export async function findCertificationRun(
  database: TDatabase,
  input: { runId: string; tenantId: string | null },
): Promise<TCertificationRunRow | null> {
  const result = await sqlPoolOf(database).query<TCertificationRunRow>(
    `SELECT ${RUN_COLUMNS} FROM certification_runs WHERE id = $1 AND ($2::uuid IS NULL OR tenant_id = $2)`,
    [input.runId, input.tenantId],
  );
  return result.rows[0] ?? null;
}

/** The run of the account with this `Idempotency-Key`, or null. */
export async function findCertificationRunByKey(
  database: TDatabase,
  input: { tenantId: string; idempotencyKey: string },
): Promise<TCertificationRunRow | null> {
  const result = await sqlPoolOf(database).query<TCertificationRunRow>(
    `SELECT ${RUN_COLUMNS} FROM certification_runs WHERE tenant_id = $1 AND idempotency_key = $2`,
    [input.tenantId, input.idempotencyKey],
  );
  return result.rows[0] ?? null;
}

/** The runs of a case, newest first. */
export async function findCertificationRunsOfCase(
  database: TDatabase,
  input: { caseId: string; limit: number },
): Promise<TCertificationRunRow[]> {
  const result = await sqlPoolOf(database).query<TCertificationRunRow>(
    `SELECT ${RUN_COLUMNS} FROM certification_runs WHERE case_id = $1 ORDER BY created_at DESC, id LIMIT $2`,
    [input.caseId, input.limit],
  );
  return result.rows;
}

/** The run of a case that is still queued or running, or null. */
export async function findActiveCertificationRun(
  database: TDatabase,
  caseId: string,
): Promise<TCertificationRunRow | null> {
  const result = await sqlPoolOf(database).query<TCertificationRunRow>(
    `SELECT ${RUN_COLUMNS} FROM certification_runs WHERE case_id = $1 AND state IN ('queued', 'running')
      ORDER BY created_at DESC LIMIT 1`,
    [caseId],
  );
  return result.rows[0] ?? null;
}

/** A run's items with the state of their documents, in send order. */
export async function findCertificationItems(
  database: TDatabase,
  runId: string,
): Promise<TCertificationItemView[]> {
  const result = await sqlPoolOf(database).query<TCertificationItemView>(
    `SELECT ${ITEM_VIEW_COLUMNS}
       FROM certification_run_items i LEFT JOIN documents d ON d.id = i.document_id
      WHERE i.run_id = $1 ORDER BY i.position`,
    [runId],
  );
  return result.rows;
}

/** The trees of a run's items that are still pending (what issuing needs), by position. */
export async function findPendingItemDocuments(
  database: TDatabase,
  runId: string,
): Promise<Map<number, Prisma.JsonValue>> {
  const result = await sqlPoolOf(database).query<{ position: number; document: Prisma.JsonValue }>(
    `SELECT position, document FROM certification_run_items WHERE run_id = $1 AND state = 'pending'`,
    [runId],
  );
  return new Map(result.rows.map((row) => [row.position, row.document]));
}

/** The item and run that issued a document, or null for a document no run issued. */
export async function findCertificationItemOfDocument(
  database: TDatabase,
  input: { tenantId: string; documentId: string },
): Promise<{ run: TCertificationRunRow; item: TCertificationItemView } | null> {
  const result = await sqlPoolOf(database).query<{ runId: string }>(
    `SELECT i.run_id AS "runId" FROM certification_run_items i JOIN certification_runs r ON r.id = i.run_id
      WHERE i.document_id = $1 AND r.tenant_id = $2 ORDER BY r.created_at DESC LIMIT 1`,
    [input.documentId, input.tenantId],
  );
  const found = result.rows[0];
  if (found === undefined) return null;
  const run = await findCertificationRun(database, { runId: found.runId, tenantId: input.tenantId });
  const items = await findCertificationItems(database, found.runId);
  const item = items.find((candidate) => candidate.documentId === input.documentId);
  return run === null || item === undefined ? null : { run, item };
}

/**
 * The claim of one step of a chain (`certification_runs` or `certification_approval_sends`): only the
 * job of the current generation, and only while the chain is queued or running, moves the
 * generation on; the safety job of the next generation is enqueued in the same transaction after
 * `leaseSeconds`. A queued chain becomes running. Null when this job is stale or the chain ended.
 */
export async function claimChainStep(
  database: TDatabase,
  input: {
    table: 'certification_runs' | 'certification_approval_sends';
    id: string;
    generation: number;
    leaseSeconds: number;
    now: Date;
    enqueue: TEnqueue;
  },
): Promise<{ generation: number } | null> {
  return inPoolTransaction(sqlPoolOf(database), async (sql) => {
    const claimed = await sql.query<{ generation: number }>(
      `UPDATE ${input.table}
          SET advance_generation = advance_generation + 1, updated_at = $3,
              state = CASE WHEN state = 'queued' THEN 'running'::"CertificationRunState" ELSE state END,
              started_at = COALESCE(started_at, $3)
        WHERE id = $1 AND advance_generation = $2 AND state IN ('queued', 'running')
        RETURNING advance_generation AS generation`,
      [input.id, input.generation, input.now],
    );
    const row = claimed.rows[0];
    if (row === undefined) return null;
    await enqueueChainJob(sql, input.table, input.id, row.generation, input.leaseSeconds, input.enqueue);
    return row;
  });
}

/**
 * Hands a chain on after a step: moves the generation past the safety job's and enqueues the next
 * step after `afterSeconds`, unless another step took the chain meanwhile or it ended.
 */
export async function continueChain(
  database: TDatabase,
  input: {
    table: 'certification_runs' | 'certification_approval_sends';
    id: string;
    generation: number;
    afterSeconds: number;
    now: Date;
    enqueue: TEnqueue;
  },
): Promise<boolean> {
  return inPoolTransaction(sqlPoolOf(database), async (sql) => {
    const moved = await sql.query<{ generation: number }>(
      `UPDATE ${input.table} SET advance_generation = advance_generation + 1, updated_at = $3
        WHERE id = $1 AND advance_generation = $2 AND state IN ('queued', 'running')
        RETURNING advance_generation AS generation`,
      [input.id, input.generation, input.now],
    );
    const row = moved.rows[0];
    if (row === undefined) return false;
    await enqueueChainJob(sql, input.table, input.id, row.generation, input.afterSeconds, input.enqueue);
    return true;
  });
}

async function enqueueChainJob(
  sql: TSql,
  table: 'certification_runs' | 'certification_approval_sends',
  id: string,
  generation: number,
  afterSeconds: number,
  enqueue: TEnqueue,
): Promise<void> {
  await enqueue(
    [
      table === 'certification_runs'
        ? {
            name: 'certification.advance',
            payload: { runId: id, generation },
            startAfterSeconds: afterSeconds,
          }
        : {
            name: 'certification.send-approvals',
            payload: { sendId: id, generation },
            startAfterSeconds: afterSeconds,
          },
    ],
    { executor: jobExecutorOfSql(sql) },
  );
}

/** Chains queued or running whose last step is older than `staleSeconds` (their jobs were lost). */
export async function findStalledChains(
  database: TDatabase,
  input: { staleSeconds: number; now: Date },
): Promise<
  Array<{ table: 'certification_runs' | 'certification_approval_sends'; id: string; generation: number }>
> {
  const result = await sqlPoolOf(database).query<{
    table: 'certification_runs' | 'certification_approval_sends';
    id: string;
    generation: number;
  }>(
    `SELECT 'certification_runs' AS "table", id, advance_generation AS generation FROM certification_runs
      WHERE state IN ('queued', 'running') AND updated_at < $1::timestamptz - make_interval(secs => $2)
     UNION ALL
     SELECT 'certification_approval_sends', id, advance_generation FROM certification_approval_sends
      WHERE state IN ('queued', 'running') AND updated_at < $1::timestamptz - make_interval(secs => $2)`,
    [input.now, input.staleSeconds],
  );
  return result.rows;
}

/** Re-enqueues a stalled chain's job of its current generation (the sweep). */
export async function resumeChain(
  database: TDatabase,
  input: {
    table: 'certification_runs' | 'certification_approval_sends';
    id: string;
    generation: number;
    now: Date;
    enqueue: TEnqueue;
  },
): Promise<void> {
  await inPoolTransaction(sqlPoolOf(database), async (sql) => {
    const touched = await sql.query(
      `UPDATE ${input.table} SET updated_at = $3 WHERE id = $1 AND advance_generation = $2 AND state IN ('queued', 'running')`,
      [input.id, input.generation, input.now],
    );
    if (touched.rowCount === 0) return;
    await enqueueChainJob(sql, input.table, input.id, input.generation, 0, input.enqueue);
  });
}

/**
 * Item changes of one advance step, each guarded on the state it was read in; `progressed` moves
 * the run's `progressed_at` when anything changed.
 */
export async function changeCertificationItems(
  database: TDatabase,
  input: {
    runId: string;
    changes: ReadonlyArray<{
      position: number;
      from: CertificationItemState;
      to: CertificationItemState;
      documentId?: string;
      detail?: unknown;
    }>;
    now: Date;
  },
): Promise<number> {
  if (input.changes.length === 0) return 0;
  return inPoolTransaction(sqlPoolOf(database), async (sql) => {
    const changed = await sql.query(
      `UPDATE certification_run_items i
          SET state = c.to_state::"CertificationItemState",
              document_id = COALESCE(c.document_id, i.document_id),
              detail = COALESCE(c.detail, i.detail),
              updated_at = $3
         FROM jsonb_to_recordset($2::jsonb) AS c(position int, from_state text, to_state text, document_id uuid, detail jsonb)
        WHERE i.run_id = $1 AND i.position = c.position AND i.state = c.from_state::"CertificationItemState"`,
      [
        input.runId,
        JSON.stringify(
          input.changes.map((change) => ({
            position: change.position,
            from_state: change.from,
            to_state: change.to,
            document_id: change.documentId ?? null,
            detail: change.detail ?? null,
          })),
        ),
        input.now,
      ],
    );
    if ((changed.rowCount ?? 0) > 0)
      await sql.query(`UPDATE certification_runs SET progressed_at = $2 WHERE id = $1`, [
        input.runId,
        input.now,
      ]);
    return changed.rowCount ?? 0;
  });
}

/**
 * Ends a run (`succeeded`, `failed` or `stopped`) from `queued`/`running` only; its pending items
 * become `stopped`. False when it had already ended.
 */
export async function finishCertificationRun(
  database: TDatabase,
  input: {
    runId: string;
    state: 'succeeded' | 'failed' | 'stopped';
    failure: unknown;
    now: Date;
    sql?: TSql;
  },
): Promise<boolean> {
  const work = async (sql: TSql): Promise<boolean> => {
    const ended = await sql.query(
      `UPDATE certification_runs SET state = $2::"CertificationRunState", failure = $3::jsonb, finished_at = $4, updated_at = $4
        WHERE id = $1 AND state IN ('queued', 'running')`,
      [input.runId, input.state, input.failure === null ? null : JSON.stringify(input.failure), input.now],
    );
    if ((ended.rowCount ?? 0) === 0) return false;
    await sql.query(
      `UPDATE certification_run_items SET state = 'stopped', updated_at = $2 WHERE run_id = $1 AND state = 'pending'`,
      [input.runId, input.now],
    );
    return true;
  };
  return input.sql ? work(input.sql) : inPoolTransaction(sqlPoolOf(database), work);
}

/**
 * A restart of a part (`reiniciar`): the part's running run stops, and every run of the part in the
 * case, with the documents they issued and the commercial approvals sends of a `data` restart, is
 * marked replaced (kept, never deleted). One transaction (the caller's `sql` when given). Returns the stopped run and how many
 * documents were marked.
 */
export async function replaceCertificationPart(
  database: TDatabase,
  input: { caseId: string; part: CertificationPart; now: Date; sql?: TSql },
): Promise<{ stoppedRunId: string | null; replacedDocuments: number; stoppedApprovalSendId: string | null }> {
  const work = async (sql: TSql) => {
    const running = await sql.query<{ id: string }>(
      `SELECT id FROM certification_runs WHERE case_id = $1 AND part = $2 AND state IN ('queued', 'running') FOR UPDATE`,
      [input.caseId, input.part],
    );
    const stoppedRunId = running.rows[0]?.id ?? null;
    for (const row of running.rows) {
      await finishCertificationRun(database, {
        runId: row.id,
        state: 'stopped',
        failure: { code: 'CERTIFICATION_PART_RESTARTED', message: `The ${input.part} part was restarted.` },
        now: input.now,
        sql,
      });
    }
    const documents = await sql.query(
      `UPDATE documents d SET replaced_at = $3
         FROM certification_run_items i JOIN certification_runs r ON r.id = i.run_id
        WHERE r.case_id = $1 AND r.part = $2 AND i.document_id = d.id AND d.replaced_at IS NULL`,
      [input.caseId, input.part, input.now],
    );
    await sql.query(
      `UPDATE certification_runs SET replaced_at = $3, updated_at = $3
        WHERE case_id = $1 AND part = $2 AND replaced_at IS NULL`,
      [input.caseId, input.part, input.now],
    );
    let stoppedApprovalSendId: string | null = null;
    if (input.part === 'data') {
      const sends = await sql.query<{ id: string; state: string }>(
        `UPDATE certification_approval_sends
            SET replaced_at = $2, updated_at = $2,
                state = CASE WHEN state IN ('queued', 'running') THEN 'stopped'::"CertificationRunState" ELSE state END,
                finished_at = CASE WHEN state IN ('queued', 'running') THEN $2 ELSE finished_at END
          WHERE case_id = $1 AND replaced_at IS NULL
          RETURNING id, state`,
        [input.caseId, input.now],
      );
      stoppedApprovalSendId = sends.rows.find((send) => send.state === 'stopped')?.id ?? null;
      await sql.query(
        `UPDATE certification_approval_items i SET state = 'stopped', updated_at = $2
           FROM certification_approval_sends s
          WHERE s.id = i.send_id AND s.case_id = $1 AND i.state = 'pending'`,
        [input.caseId, input.now],
      );
    }
    return { stoppedRunId, replacedDocuments: documents.rowCount ?? 0, stoppedApprovalSendId };
  };
  return input.sql ? work(input.sql) : inPoolTransaction(sqlPoolOf(database), work);
}

/** Stores the evidence ZIP of a final run once (write-once artifact); returns the artifact id kept. */
export async function storeRunEvidence(
  database: TDatabase,
  input: { runId: string; tenantId: string; content: Uint8Array; sha256: string; now: Date },
): Promise<string> {
  return inPoolTransaction(sqlPoolOf(database), async (sql) => {
    const locked = await sql.query<{ evidenceArtifactId: string | null }>(
      `SELECT evidence_artifact_id AS "evidenceArtifactId" FROM certification_runs WHERE id = $1 FOR UPDATE`,
      [input.runId],
    );
    const existing = locked.rows[0]?.evidenceArtifactId;
    if (existing) return existing;
    const artifact = await sql.query<{ id: string }>(
      `INSERT INTO artifacts (id, tenant_id, document_id, kind, content_type, content, sha256, size_bytes, created_at)
       VALUES (gen_random_uuid(), $1, NULL, 'evidence', 'application/zip', $2, $3, $4, $5) RETURNING id`,
      [
        input.tenantId,
        Buffer.from(input.content.buffer, input.content.byteOffset, input.content.byteLength),
        input.sha256,
        input.content.byteLength,
        input.now,
      ],
    );
    const id = (artifact.rows[0] as { id: string }).id;
    await sql.query(`UPDATE certification_runs SET evidence_artifact_id = $2 WHERE id = $1`, [
      input.runId,
      id,
    ]);
    return id;
  });
}

/** The stored evidence ZIP of a run. */
export async function readArtifactContent(
  database: TDatabase,
  artifactId: string,
): Promise<{ content: Buffer; sha256: string }> {
  const result = await sqlPoolOf(database).query<{ content: Buffer; sha256: string }>(
    `SELECT content, sha256 FROM artifacts WHERE id = $1`,
    [artifactId],
  );
  const row = result.rows[0];
  if (row === undefined) throw new Error(`artifact ${artifactId} not found`);
  return row;
}

// ---------------------------------------------------------------------------------------------
// Commercial approvals of the tests (`ACEECF_Generadas`).

export type TApprovalSendRow = {
  id: string;
  tenantId: string;
  caseId: string;
  setId: string;
  state: CertificationRunState;
  idempotencyKey: string | null;
  requestFingerprint: string | null;
  failure: Prisma.JsonValue;
  createdAt: Date;
  updatedAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
  replacedAt: Date | null;
  advanceGeneration: number;
};

export type TApprovalItemRow = {
  sendId: string;
  position: number;
  sheetRow: number;
  encf: string;
  issuerRnc: string;
  values: Record<string, string>;
  signedXml: string | null;
  answer: Prisma.JsonValue;
  state: CertificationApprovalItemState;
  sentAt: Date | null;
  updatedAt: Date;
};

const SEND_COLUMNS = `id, tenant_id AS "tenantId", case_id AS "caseId", set_id AS "setId", state,
  idempotency_key AS "idempotencyKey", request_fingerprint AS "requestFingerprint", failure,
  created_at AS "createdAt", updated_at AS "updatedAt", started_at AS "startedAt", finished_at AS "finishedAt",
  replaced_at AS "replacedAt", advance_generation AS "advanceGeneration"`;

const APPROVAL_ITEM_COLUMNS = `send_id AS "sendId", position, sheet_row AS "sheetRow", encf, issuer_rnc AS "issuerRnc",
  values, signed_xml AS "signedXml", answer, state, sent_at AS "sentAt", updated_at AS "updatedAt"`;

/** Stores an approvals send with its items and its first job in ONE transaction. */
export async function insertApprovalSend(
  database: TDatabase,
  input: {
    tenantId: string;
    caseId: string;
    setId: string;
    idempotencyKey: string | null;
    requestFingerprint: string | null;
    items: ReadonlyArray<{
      position: number;
      sheetRow: number;
      encf: string;
      issuerRnc: string;
      values: unknown;
    }>;
    now: Date;
    enqueue: TEnqueue;
  },
): Promise<TApprovalSendRow> {
  return inPoolTransaction(sqlPoolOf(database), async (sql) => {
    const inserted = await sql.query<TApprovalSendRow>(
      `INSERT INTO certification_approval_sends
         (id, tenant_id, case_id, set_id, idempotency_key, request_fingerprint, created_at, updated_at)
       VALUES (gen_random_uuid(), $1, $2, $3, $4, $5, $6, $6)
       RETURNING ${SEND_COLUMNS}`,
      [input.tenantId, input.caseId, input.setId, input.idempotencyKey, input.requestFingerprint, input.now],
    );
    const send = inserted.rows[0] as TApprovalSendRow;
    await sql.query(
      `INSERT INTO certification_approval_items (send_id, position, sheet_row, encf, issuer_rnc, values, updated_at)
       SELECT $1, item.position, item.sheet_row, item.encf, item.issuer_rnc, item.values, $3
         FROM jsonb_to_recordset($2::jsonb) AS item(position int, sheet_row int, encf text, issuer_rnc text, values jsonb)`,
      [
        send.id,
        JSON.stringify(
          input.items.map((item) => ({
            position: item.position,
            sheet_row: item.sheetRow,
            encf: item.encf,
            issuer_rnc: item.issuerRnc,
            values: item.values,
          })),
        ),
        input.now,
      ],
    );
    await input.enqueue(
      [{ name: 'certification.send-approvals', payload: { sendId: send.id, generation: 0 } }],
      { executor: jobExecutorOfSql(sql) },
    );
    return send;
  });
}

/** An approvals send (of the account when `tenantId` is given), or null. */
export async function findApprovalSend(
  database: TDatabase,
  input: { sendId: string; tenantId: string | null },
): Promise<TApprovalSendRow | null> {
  const result = await sqlPoolOf(database).query<TApprovalSendRow>(
    `SELECT ${SEND_COLUMNS} FROM certification_approval_sends WHERE id = $1 AND ($2::uuid IS NULL OR tenant_id = $2)`,
    [input.sendId, input.tenantId],
  );
  return result.rows[0] ?? null;
}

/** The latest approvals send of a case that was not replaced by a restart, or null. */
export async function findLatestApprovalSend(
  database: TDatabase,
  caseId: string,
): Promise<TApprovalSendRow | null> {
  const result = await sqlPoolOf(database).query<TApprovalSendRow>(
    `SELECT ${SEND_COLUMNS} FROM certification_approval_sends WHERE case_id = $1 AND replaced_at IS NULL
      ORDER BY created_at DESC, id LIMIT 1`,
    [caseId],
  );
  return result.rows[0] ?? null;
}

/** The approvals send of the account with this `Idempotency-Key`, or null. */
export async function findApprovalSendByKey(
  database: TDatabase,
  input: { tenantId: string; idempotencyKey: string },
): Promise<TApprovalSendRow | null> {
  const result = await sqlPoolOf(database).query<TApprovalSendRow>(
    `SELECT ${SEND_COLUMNS} FROM certification_approval_sends WHERE tenant_id = $1 AND idempotency_key = $2`,
    [input.tenantId, input.idempotencyKey],
  );
  return result.rows[0] ?? null;
}

/** The items of a send, in order. */
export async function findApprovalItems(database: TDatabase, sendId: string): Promise<TApprovalItemRow[]> {
  const result = await sqlPoolOf(database).query<TApprovalItemRow>(
    `SELECT ${APPROVAL_ITEM_COLUMNS} FROM certification_approval_items WHERE send_id = $1 ORDER BY position`,
    [sendId],
  );
  return result.rows;
}

/** One guarded change of an approval item (and `sent_at` when it carries an answer). */
export async function changeApprovalItem(
  database: TDatabase,
  input: {
    sendId: string;
    position: number;
    from: CertificationApprovalItemState;
    to: CertificationApprovalItemState;
    signedXml?: string;
    answer?: unknown;
    now: Date;
  },
): Promise<boolean> {
  const result = await sqlPoolOf(database).query(
    `UPDATE certification_approval_items
        SET state = $4::"CertificationApprovalItemState",
            signed_xml = COALESCE($5, signed_xml),
            answer = COALESCE($6::jsonb, answer),
            sent_at = CASE WHEN $6::jsonb IS NULL THEN sent_at ELSE $7 END,
            updated_at = $7
      WHERE send_id = $1 AND position = $2 AND state = $3::"CertificationApprovalItemState"`,
    [
      input.sendId,
      input.position,
      input.from,
      input.to,
      input.signedXml ?? null,
      input.answer === undefined ? null : JSON.stringify(input.answer),
      input.now,
    ],
  );
  return (result.rowCount ?? 0) > 0;
}

/** Ends an approvals send from queued/running; its pending items become `stopped`. */
export async function finishApprovalSend(
  database: TDatabase,
  input: {
    sendId: string;
    state: 'succeeded' | 'failed' | 'stopped';
    failure: unknown;
    now: Date;
    sql?: TSql;
  },
): Promise<boolean> {
  const work = async (sql: TSql): Promise<boolean> => {
    const ended = await sql.query(
      `UPDATE certification_approval_sends SET state = $2::"CertificationRunState", failure = $3::jsonb, finished_at = $4, updated_at = $4
        WHERE id = $1 AND state IN ('queued', 'running')`,
      [input.sendId, input.state, input.failure === null ? null : JSON.stringify(input.failure), input.now],
    );
    if ((ended.rowCount ?? 0) === 0) return false;
    await sql.query(
      `UPDATE certification_approval_items SET state = 'stopped', updated_at = $2 WHERE send_id = $1 AND state = 'pending'`,
      [input.sendId, input.now],
    );
    return true;
  };
  return input.sql ? work(input.sql) : inPoolTransaction(sqlPoolOf(database), work);
}
