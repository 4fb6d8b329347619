/**
 * Registered eNCF ranges (`secuencias`): insert (the exclusion constraint
 * `sequence_ranges_no_overlap` refuses an overlap), list with their counts, and the range of an
 * eNCF for rule 16.
 */
import { sqlPoolOf, type Environment, type TDatabase } from '@ecf/db';
import { ENCF_NUMBER } from '../statements.ts';

/** A registered range as stored, numbers as JavaScript numbers (10 digits fit). */
export type TSequenceRangeRow = {
  id: string;
  type: number;
  prefix: string;
  firstEncf: string;
  lastEncf: string;
  firstNumber: number;
  lastNumber: number;
  /** `YYYY-MM-DD`. */
  sequenceExpirationDate: string;
  registeredAt: Date;
};

/** A range with how many of its numbers are used by documents, annulled (or reserved) and free. */
export type TSequenceRangeWithCounts = TSequenceRangeRow & {
  used: number;
  annulled: number;
};

type TRangeRecord = {
  id: string;
  type: number;
  prefix: string;
  first_encf: string;
  last_encf: string;
  first_number: string;
  last_number: string;
  sequence_expiration_date: string;
  registered_at: Date;
};

const rangeColumns = (alias: string): string =>
  `${alias}id, ${alias}type, ${alias}prefix, ${alias}first_encf, ${alias}last_encf,
   ${alias}first_number::text AS first_number, ${alias}last_number::text AS last_number,
   to_char(${alias}sequence_expiration_date, 'YYYY-MM-DD') AS sequence_expiration_date, ${alias}registered_at`;
const RANGE_COLUMNS = rangeColumns('');

function rangeOf(record: TRangeRecord): TSequenceRangeRow {
  return {
    id: record.id,
    type: record.type,
    prefix: record.prefix,
    firstEncf: record.first_encf,
    lastEncf: record.last_encf,
    firstNumber: Number(record.first_number),
    lastNumber: Number(record.last_number),
    sequenceExpirationDate: record.sequence_expiration_date,
    registeredAt: record.registered_at,
  };
}

/** PostgreSQL's exclusion_violation (an overlapping range). */
export function isExclusionViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '23P01';
}

/**
 * Stores a range; an overlap with another range of the same prefix fails with the exclusion
 * violation (see {@link isExclusionViolation}), even between two registrations racing each other.
 */
export async function insertSequenceRange(
  database: TDatabase,
  input: {
    id: string;
    tenantId: string;
    environment: Environment;
    type: number;
    prefix: string;
    firstEncf: string;
    lastEncf: string;
    firstNumber: number;
    lastNumber: number;
    sequenceExpirationDate: string;
    registeredAt: Date;
  },
): Promise<TSequenceRangeRow> {
  const { rows } = await sqlPoolOf(database).query<TRangeRecord>(
    `INSERT INTO sequence_ranges (id, tenant_id, environment, type, prefix, first_encf, last_encf, first_number, last_number,
       sequence_expiration_date, registered_at)
     VALUES ($1::uuid, $2::uuid, $3::"Environment", $4::smallint, $5, $6, $7, $8::bigint, $9::bigint, $10::date, $11::timestamptz)
     RETURNING ${RANGE_COLUMNS}`,
    [
      input.id,
      input.tenantId,
      input.environment,
      input.type,
      input.prefix,
      input.firstEncf,
      input.lastEncf,
      input.firstNumber,
      input.lastNumber,
      input.sequenceExpirationDate,
      input.registeredAt,
    ],
  );
  return rangeOf(rows[0] as TRangeRecord);
}

/** The range of the prefix overlapping `[first, last]`, if any (to name it in the 409). */
export async function findOverlappingSequenceRange(
  database: TDatabase,
  input: {
    tenantId: string;
    environment: Environment;
    prefix: string;
    firstNumber: number;
    lastNumber: number;
  },
): Promise<TSequenceRangeRow | null> {
  const { rows } = await sqlPoolOf(database).query<TRangeRecord>(
    `SELECT ${RANGE_COLUMNS} FROM sequence_ranges
     WHERE tenant_id = $1::uuid AND environment = $2::"Environment" AND prefix = $3
       AND first_number <= $5::bigint AND last_number >= $4::bigint
     ORDER BY first_number LIMIT 1`,
    [input.tenantId, input.environment, input.prefix, input.firstNumber, input.lastNumber],
  );
  return rows[0] === undefined ? null : rangeOf(rows[0]);
}

/**
 * The ranges of an environment with their counts: `used` = this tenant's documents whose eNCF is
 * in the range (cancelled ones excluded: their number is annulled), `annulled` = numbers inside
 * active annulment ranges (reserved or annulled) without a non-cancelled document.
 */
export async function listSequenceRangesWithCounts(
  database: TDatabase,
  input: { tenantId: string; environment: Environment },
): Promise<TSequenceRangeWithCounts[]> {
  const { rows } = await sqlPoolOf(database).query<
    TRangeRecord & { used: string; annulled_total: string; used_in_annulled: string }
  >(
    `SELECT ${rangeColumns('s.')},
       (SELECT count(*) FROM documents d
         WHERE d.tenant_id = s.tenant_id AND d.environment = s.environment AND d.status <> 'cancelled'
           AND d.encf >= s.first_encf AND d.encf <= s.last_encf AND length(d.encf) = 13)::text AS used,
       (SELECT COALESCE(sum(LEAST(a.last_number, s.last_number) - GREATEST(a.first_number, s.first_number) + 1), 0)
          FROM annulment_ranges a
         WHERE a.tenant_id = s.tenant_id AND a.environment = s.environment AND a.prefix = s.prefix AND a.active
           AND a.first_number <= s.last_number AND a.last_number >= s.first_number)::text AS annulled_total,
       (SELECT count(*) FROM documents d
         WHERE d.tenant_id = s.tenant_id AND d.environment = s.environment AND d.status <> 'cancelled'
           AND d.encf >= s.first_encf AND d.encf <= s.last_encf AND length(d.encf) = 13
           AND EXISTS (SELECT 1 FROM annulment_ranges a
                        WHERE a.tenant_id = d.tenant_id AND a.environment = d.environment AND a.active
                          AND a.prefix = substr(d.encf, 1, 3)
                          AND ${ENCF_NUMBER('d.encf')} BETWEEN a.first_number AND a.last_number))::text AS used_in_annulled
     FROM sequence_ranges s
     WHERE s.tenant_id = $1::uuid AND s.environment = $2::"Environment"
     ORDER BY s.prefix, s.first_number`,
    [input.tenantId, input.environment],
  );
  return rows.map((record) => {
    return {
      ...rangeOf(record),
      used: Number(record.used),
      annulled: Number(record.annulled_total) - Number(record.used_in_annulled),
    };
  });
}

/**
 * The registered range containing an eNCF (rule 16), or null; and whether the tenant has any range
 * in the environment at all (emission caches a "none": see sequences/find-registered-range.ts).
 */
export async function findSequenceRangeOfEncf(
  database: TDatabase,
  input: { tenantId: string; environment: Environment; encf: string },
): Promise<{ range: TSequenceRangeRow | null; anyRange: boolean }> {
  const { rows } = await sqlPoolOf(database).query<TRangeRecord & { any_range: boolean; id: string | null }>(
    `SELECT r.*, EXISTS (SELECT 1 FROM sequence_ranges WHERE tenant_id = $1::uuid AND environment = $2::"Environment") AS any_range
     FROM (SELECT 1) AS one
     LEFT JOIN LATERAL (
       SELECT ${RANGE_COLUMNS} FROM sequence_ranges
       WHERE tenant_id = $1::uuid AND environment = $2::"Environment" AND prefix = substr($3::text, 1, 3)
         AND first_number <= ${ENCF_NUMBER('$3::text')} AND last_number >= ${ENCF_NUMBER('$3::text')}
       LIMIT 1
     ) AS r ON true`,
    [input.tenantId, input.environment, input.encf],
  );
  const row = rows[0];
  return {
    range: row === undefined || row.id === null ? null : rangeOf(row),
    anyRange: row?.any_range === true,
  };
}
