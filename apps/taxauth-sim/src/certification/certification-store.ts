/**
 * The certification portal's queries (tables of `migrations/0002_certification`). Every change to
 * one taxpayer's certification runs in a transaction holding its row (`SELECT … FOR UPDATE`), so
 * receptions judged at the same moment, admin calls and restarts see each other's effects in order.
 */
import type pg from 'pg';
import { inPoolTransaction, type TSql } from '@ecf/db';
import type { TCertificationWorkbook } from '@ecf/certification-sets';
import type { TMessage } from '../messages.ts';
import { currentStepOf, type TCertificationStep, type TCompletedSteps } from './steps.ts';

/** Why the data tests or the approval tests were last refused, as the status shows it. */
export type TCertificationRejection = {
  readonly encf: string | null;
  readonly sheet: string | null;
  readonly field: string | null;
  readonly expected: string | null;
  readonly received: string | null;
  readonly message: string;
  readonly trackId: string | null;
  readonly at: string;
};

/** URLs registered at the portal (bases: the tax authority appends its service paths). */
export type TServiceUrls = {
  readonly receptionUrl: string;
  readonly commercialApprovalUrl: string;
  readonly authenticationUrl: string | null;
  readonly registeredAt: string;
};

export type TCertificationRecord = {
  readonly rnc: string;
  readonly legalName: string | null;
  readonly step: TCertificationStep;
  readonly completedSteps: TCompletedSteps;
  readonly ecfSetId: number | null;
  readonly approvalSetId: number | null;
  readonly dataEpoch: number;
  readonly dataResets: number;
  readonly approvalEpoch: number;
  readonly lastDataRejection: TCertificationRejection | null;
  readonly lastApprovalRejection: TCertificationRejection | null;
  readonly simulationFrom: Date | null;
  readonly testUrls: TServiceUrls | null;
  readonly productionUrls: TServiceUrls | null;
  readonly registeredAt: Date;
  readonly updatedAt: Date;
};

/** The columns a change may set (the step always follows `completedSteps`). */
export type TCertificationPatch = Partial<
  Pick<
    TCertificationRecord,
    | 'legalName'
    | 'completedSteps'
    | 'ecfSetId'
    | 'approvalSetId'
    | 'dataEpoch'
    | 'dataResets'
    | 'approvalEpoch'
    | 'lastDataRejection'
    | 'lastApprovalRejection'
    | 'simulationFrom'
    | 'testUrls'
    | 'productionUrls'
  >
>;

export type TStoredSet = {
  readonly id: number;
  readonly rnc: string;
  readonly kind: 'ecf' | 'approval';
  readonly origin: 'issued' | 'loaded';
  readonly workbook: TCertificationWorkbook;
  readonly renumbering: Readonly<Record<string, string>> | null;
  /** The legal name an issued set wrote into `RazonSocialEmisor` (null: the template's). */
  readonly issuedLegalName: string | null;
  readonly fileName: string;
  readonly createdAt: Date;
};

export type TAttestation = {
  readonly step: string;
  readonly outcome: 'approved' | 'rejected';
  readonly notes: string | null;
  readonly recordedAt: Date;
};

export type TReceptionTestRecord = {
  readonly kind: 'ecf' | 'commercial_approval';
  readonly ok: boolean;
  readonly calls: unknown;
  readonly ranAt: Date;
};

/** A document the tax authority's test issuer is known to have issued (and the tax authority accepted). */
export type TIssuedDocument = {
  readonly trackId: string;
  readonly environment: string;
  readonly rncEmisor: string;
  readonly encf: string;
  readonly rncComprador: string;
  readonly montoTotal: string;
  readonly totalItbis: string | null;
  readonly fechaEmision: string;
  readonly fechaFirma: string | null;
  readonly codigoSeguridad: string | null;
  readonly receivedAt: Date;
};

type TCertificationRow = {
  rnc: string;
  legal_name: string | null;
  step: string;
  completed_steps: TCompletedSteps;
  ecf_set_id: string | null;
  approval_set_id: string | null;
  data_epoch: number;
  data_resets: number;
  approval_epoch: number;
  last_data_rejection: TCertificationRejection | null;
  last_approval_rejection: TCertificationRejection | null;
  simulation_from: Date | null;
  test_urls: TServiceUrls | null;
  production_urls: TServiceUrls | null;
  registered_at: Date;
  updated_at: Date;
};

function recordOf(row: TCertificationRow): TCertificationRecord {
  return {
    rnc: row.rnc,
    legalName: row.legal_name,
    step: currentStepOf(row.completed_steps),
    completedSteps: row.completed_steps,
    ecfSetId: row.ecf_set_id === null ? null : Number(row.ecf_set_id),
    approvalSetId: row.approval_set_id === null ? null : Number(row.approval_set_id),
    dataEpoch: row.data_epoch,
    dataResets: row.data_resets,
    approvalEpoch: row.approval_epoch,
    lastDataRejection: row.last_data_rejection,
    lastApprovalRejection: row.last_approval_rejection,
    simulationFrom: row.simulation_from,
    testUrls: row.test_urls,
    productionUrls: row.production_urls,
    registeredAt: row.registered_at,
    updatedAt: row.updated_at,
  };
}

const PATCH_COLUMNS: ReadonlyArray<[keyof TCertificationPatch, string, 'json' | 'plain']> = [
  ['legalName', 'legal_name', 'plain'],
  ['completedSteps', 'completed_steps', 'json'],
  ['ecfSetId', 'ecf_set_id', 'plain'],
  ['approvalSetId', 'approval_set_id', 'plain'],
  ['dataEpoch', 'data_epoch', 'plain'],
  ['dataResets', 'data_resets', 'plain'],
  ['approvalEpoch', 'approval_epoch', 'plain'],
  ['lastDataRejection', 'last_data_rejection', 'json'],
  ['lastApprovalRejection', 'last_approval_rejection', 'json'],
  ['simulationFrom', 'simulation_from', 'plain'],
  ['testUrls', 'test_urls', 'json'],
  ['productionUrls', 'production_urls', 'json'],
];

export type TCertificationStore = ReturnType<typeof createCertificationStore>;

/** The certification queries on the simulator's pool; `s` is the quoted schema name. */
export function createCertificationStore(pool: pg.Pool, s: string) {
  const readCertification = async (sql: TSql, rnc: string, lock: boolean) => {
    const result = await sql.query<TCertificationRow>(
      `SELECT * FROM ${s}.certifications WHERE rnc = $1${lock ? ' FOR UPDATE' : ''}`,
      [rnc],
    );
    const row = result.rows[0];
    return row === undefined ? undefined : recordOf(row);
  };

  return {
    /** The certification of `rnc`, or undefined when the RNC never registered. */
    async get(rnc: string): Promise<TCertificationRecord | undefined> {
      return readCertification(pool, rnc, false);
    },

    /**
     * Runs `work` in a transaction holding the certification row of `rnc` (undefined when there is
     * none yet: `insert` creates it in the same transaction).
     */
    async withLocked<T>(
      rnc: string,
      work: (sql: TSql, record: TCertificationRecord | undefined) => Promise<T>,
    ): Promise<T> {
      return inPoolTransaction(pool, async (sql) => work(sql, await readCertification(sql, rnc, true)));
    },

    /** Creates the row; false when another request created it first (the caller re-reads). */
    async insert(
      sql: TSql,
      options: { rnc: string; legalName: string | null; completedSteps: TCompletedSteps; at: Date },
    ): Promise<boolean> {
      const result = await sql.query(
        `INSERT INTO ${s}.certifications (rnc, legal_name, step, completed_steps, registered_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $5) ON CONFLICT (rnc) DO NOTHING`,
        [
          options.rnc,
          options.legalName,
          currentStepOf(options.completedSteps),
          JSON.stringify(options.completedSteps),
          options.at,
        ],
      );
      return (result.rowCount ?? 0) > 0;
    },

    /** Sets the given columns (and the step that follows from `completedSteps`); returns the new record. */
    async update(
      sql: TSql,
      rnc: string,
      patch: TCertificationPatch,
      at: Date,
    ): Promise<TCertificationRecord> {
      const assignments: string[] = [];
      const values: unknown[] = [rnc, at];
      for (const [key, column, kind] of PATCH_COLUMNS) {
        if (!(key in patch)) continue;
        const value = patch[key];
        values.push(kind === 'json' && value !== null ? JSON.stringify(value) : value);
        assignments.push(`${column} = $${values.length}`);
      }
      if (patch.completedSteps !== undefined) {
        values.push(currentStepOf(patch.completedSteps));
        assignments.push(`step = $${values.length}`);
      }
      const result = await sql.query<TCertificationRow>(
        `UPDATE ${s}.certifications SET ${[...assignments, 'updated_at = $2'].join(', ')} WHERE rnc = $1 RETURNING *`,
        values,
      );
      const row = result.rows[0];
      if (row === undefined) throw new Error(`no certification for ${rnc}`);
      return recordOf(row);
    },

    async insertSet(sql: TSql, set: Omit<TStoredSet, 'id'> & { xlsx: Uint8Array | null }): Promise<number> {
      const result = await sql.query<{ id: string }>(
        `INSERT INTO ${s}.certification_sets (rnc, kind, origin, workbook, renumbering, issued_legal_name, xlsx, file_name, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id`,
        [
          set.rnc,
          set.kind,
          set.origin,
          JSON.stringify(set.workbook),
          set.renumbering === null ? null : JSON.stringify(set.renumbering),
          set.issuedLegalName,
          set.xlsx === null ? null : Buffer.from(set.xlsx),
          set.fileName,
          set.createdAt,
        ],
      );
      return Number(result.rows[0]?.id);
    },

    /** A stored set; `sql`: the caller's connection (inside `withLocked`, so no second connection is taken). */
    async getSet(id: number, sql: TSql = pool): Promise<TStoredSet | undefined> {
      const result = await sql.query<{
        id: string;
        rnc: string;
        kind: 'ecf' | 'approval';
        origin: 'issued' | 'loaded';
        workbook: TCertificationWorkbook;
        renumbering: Record<string, string> | null;
        issued_legal_name: string | null;
        file_name: string;
        created_at: Date;
      }>(
        `SELECT id, rnc, kind, origin, workbook, renumbering, issued_legal_name, file_name, created_at FROM ${s}.certification_sets WHERE id = $1`,
        [id],
      );
      const row = result.rows[0];
      if (row === undefined) return undefined;
      return {
        id: Number(row.id),
        rnc: row.rnc,
        kind: row.kind,
        origin: row.origin,
        workbook: row.workbook,
        renumbering: row.renumbering,
        issuedLegalName: row.issued_legal_name,
        fileName: row.file_name,
        createdAt: row.created_at,
      };
    },

    /** The xlsx of a set; null when an issued set's file was not written yet. */
    async setFile(id: number): Promise<Buffer | null> {
      const result = await pool.query<{ xlsx: Buffer | null }>(
        `SELECT xlsx FROM ${s}.certification_sets WHERE id = $1`,
        [id],
      );
      return result.rows[0]?.xlsx ?? null;
    },

    async storeSetFile(id: number, xlsx: Uint8Array): Promise<void> {
      await pool.query(`UPDATE ${s}.certification_sets SET xlsx = $2 WHERE id = $1 AND xlsx IS NULL`, [
        id,
        Buffer.from(xlsx),
      ]);
    },

    /**
     * Reserves `count` sequences of an issuer's e-CF type and returns the first: after every
     * sequence handed out before and every e-NCF the issuer used or annulled in the environment.
     */
    async reserveSequences(
      environment: string,
      rnc: string,
      type: string,
      count: number,
      sql: TSql = pool,
    ): Promise<number> {
      const result = await sql.query<{ last_sequence: string }>(
        `WITH top AS (
           SELECT greatest(
             (SELECT coalesce(max(substr(encf, 4)::bigint), 0) FROM ${s}.used_encf
               WHERE environment = $1 AND rnc_emisor = $2 AND encf ~ ('^E' || $3 || '[0-9]{10}$')),
             (SELECT coalesce(max(substr(encf_to, 4)::bigint), 0) FROM ${s}.annulled_ranges
               WHERE environment = $1 AND rnc_emisor = $2 AND encf_to ~ ('^E' || $3 || '[0-9]{10}$'))
           ) AS sequence
         )
         INSERT INTO ${s}.encf_counters (environment, rnc, type, last_sequence)
         SELECT $1, $2, $3, top.sequence + $4 FROM top
         ON CONFLICT (environment, rnc, type) DO UPDATE
           SET last_sequence = greatest(${s}.encf_counters.last_sequence + $4, EXCLUDED.last_sequence)
         RETURNING last_sequence`,
        [environment, rnc, type, count],
      );
      return Number(result.rows[0]?.last_sequence) - count + 1;
    },

    /** Marks a row of a set received correctly in an epoch (again: nothing changes). */
    async insertProgress(
      sql: TSql,
      progress: {
        setId: number;
        epoch: number;
        sheet: string;
        encf: string;
        trackId: string | null;
        at: Date;
      },
    ): Promise<void> {
      await sql.query(
        `INSERT INTO ${s}.certification_progress (set_id, epoch, sheet, encf, track_id, accepted_at)
         VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING`,
        [progress.setId, progress.epoch, progress.sheet, progress.encf, progress.trackId, progress.at],
      );
    },

    /** The rows of a set received correctly in an epoch, as `sheet:eNCF`. */
    async progressOf(sql: TSql | undefined, setId: number, epoch: number): Promise<Set<string>> {
      const result = await (sql ?? pool).query<{ sheet: string; encf: string }>(
        `SELECT sheet, encf FROM ${s}.certification_progress WHERE set_id = $1 AND epoch = $2`,
        [setId, epoch],
      );
      return new Set(result.rows.map((row) => `${row.sheet}:${row.encf}`));
    },

    async insertAttestation(sql: TSql, rnc: string, attestation: TAttestation): Promise<void> {
      await sql.query(
        `INSERT INTO ${s}.certification_attestations (rnc, step, outcome, notes, recorded_at) VALUES ($1, $2, $3, $4, $5)`,
        [rnc, attestation.step, attestation.outcome, attestation.notes, attestation.recordedAt],
      );
    },

    async attestationsOf(rnc: string): Promise<TAttestation[]> {
      const result = await pool.query<{
        step: string;
        outcome: 'approved' | 'rejected';
        notes: string | null;
        recorded_at: Date;
      }>(
        `SELECT step, outcome, notes, recorded_at FROM ${s}.certification_attestations WHERE rnc = $1 ORDER BY id`,
        [rnc],
      );
      return result.rows.map((row) => ({
        step: row.step,
        outcome: row.outcome,
        notes: row.notes,
        recordedAt: row.recorded_at,
      }));
    },

    async insertReceptionTest(sql: TSql, rnc: string, test: TReceptionTestRecord): Promise<void> {
      await sql.query(
        `INSERT INTO ${s}.certification_reception_tests (rnc, kind, ok, calls, ran_at) VALUES ($1, $2, $3, $4, $5)`,
        [rnc, test.kind, test.ok, JSON.stringify(test.calls), test.ranAt],
      );
    },

    async receptionTestsOf(rnc: string): Promise<TReceptionTestRecord[]> {
      const result = await pool.query<{
        kind: 'ecf' | 'commercial_approval';
        ok: boolean;
        calls: unknown;
        ran_at: Date;
      }>(
        `SELECT kind, ok, calls, ran_at FROM ${s}.certification_reception_tests WHERE rnc = $1 ORDER BY id`,
        [rnc],
      );
      return result.rows.map((row) => ({ kind: row.kind, ok: row.ok, calls: row.calls, ranAt: row.ran_at }));
    },

    /**
     * Accepted CerteCF receptions of an issuer since `from`, by the categories of a data-test set:
     * the e-CF type, with E32 summaries (RFCE, below RD$250,000) as `32_rfce`.
     */
    async acceptedCountsSince(rnc: string, from: Date, sql: TSql = pool): Promise<Record<string, number>> {
      const result = await sql.query<{ category: string; count: string }>(
        `SELECT CASE WHEN kind = 'RFCE' THEN '32_rfce' ELSE substr(encf, 2, 2) END AS category, count(*) AS count
           FROM ${s}.tracks
          WHERE environment = 'certecf' AND rnc_emisor = $1 AND received_at >= $2
            AND codigo IN (1, 4) AND secuencia_utilizada AND final_at IS NOT NULL AND encf IS NOT NULL
          GROUP BY 1`,
        [rnc, from],
      );
      return Object.fromEntries(result.rows.map((row) => [row.category, Number(row.count)]));
    },

    /**
     * The taxpayer's e-CF the tax authority accepted in CerteCF, newest first, of the types a
     * commercial approval applies to (for the approval reception test).
     */
    async approvableDocumentsOf(
      rnc: string,
    ): Promise<
      Array<{ encf: string; fechaEmision: string; montoTotal: string; rncComprador: string | null }>
    > {
      const result = await pool.query<{
        encf: string;
        fecha_emision: string;
        monto_total: string;
        rnc_comprador: string | null;
      }>(
        `SELECT encf, fecha_emision, monto_total, rnc_comprador FROM ${s}.tracks
          WHERE environment = 'certecf' AND kind = 'ECF' AND rnc_emisor = $1 AND codigo IN (1, 4)
            AND secuencia_utilizada AND final_at IS NOT NULL AND encf ~ '^E(31|33|34|44|45)'
            AND fecha_emision IS NOT NULL AND monto_total IS NOT NULL
          ORDER BY received_at DESC LIMIT 20`,
        [rnc],
      );
      return result.rows.map((row) => ({
        encf: row.encf,
        fechaEmision: row.fecha_emision,
        montoTotal: row.monto_total,
        rncComprador: row.rnc_comprador,
      }));
    },

    /**
     * Records documents the test issuer issued as accepted receptions of the environment (their
     * e-NCF used), unless the same document for the same buyer is already recorded: what the
     * tax authority knows of the e-CF an approval set answers or a reception test delivers.
     */
    async recordIssuedDocuments(documents: readonly TIssuedDocument[]): Promise<void> {
      const accepted: TMessage[] = [{ valor: '', codigo: 0 }];
      await inPoolTransaction(pool, async (sql) => {
        for (const document of documents) {
          await sql.query(
            `INSERT INTO ${s}.used_encf (environment, rnc_emisor, encf, track_id, used_at)
             VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING`,
            [document.environment, document.rncEmisor, document.encf, document.trackId, document.receivedAt],
          );
          await sql.query(
            `INSERT INTO ${s}.tracks (track_id, environment, kind, submitter_rnc, rnc_emisor, encf, rnc_comprador,
               monto_total, total_itbis, fecha_emision, fecha_firma, codigo_seguridad, codigo, estado,
               secuencia_utilizada, mensajes, received_at, final_at)
             SELECT $1, $2, 'ECF', $3, $3, $4, $5, $6, $7, $8, $9, $10, 1, 'Aceptado', true, $11, $12, $12
              WHERE NOT EXISTS (
                SELECT 1 FROM ${s}.tracks WHERE environment = $2 AND rnc_emisor = $3 AND encf = $4
                   AND rnc_comprador = $5 AND codigo IN (1, 4))`,
            [
              document.trackId,
              document.environment,
              document.rncEmisor,
              document.encf,
              document.rncComprador,
              document.montoTotal,
              document.totalItbis,
              document.fechaEmision,
              document.fechaFirma,
              document.codigoSeguridad,
              JSON.stringify(accepted),
              document.receivedAt,
            ],
          );
        }
      });
    },

    /** Finished certifications: what the `ecf` directory lists for them. */
    async finished(): Promise<Array<{ rnc: string; legalName: string | null; urls: TServiceUrls }>> {
      const result = await pool.query<{
        rnc: string;
        legal_name: string | null;
        production_urls: TServiceUrls;
      }>(
        `SELECT rnc, legal_name, production_urls FROM ${s}.certifications
          WHERE step = 'finished' AND production_urls IS NOT NULL ORDER BY rnc`,
      );
      return result.rows.map((row) => ({
        rnc: row.rnc,
        legalName: row.legal_name,
        urls: row.production_urls,
      }));
    },
  };
}
