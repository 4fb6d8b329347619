import { randomUUID } from 'node:crypto';
import type { Environment, TDatabase } from '@ecf/db';
import {
  findOverlappingSequenceRange,
  insertSequenceRange,
  isExclusionViolation,
} from '../persistence/index.ts';
import { assertAccountProductionActive } from '../accounts/index.ts';
import { AppError } from '../shared/errors.ts';
import { forgetNoRegisteredRanges } from './find-registered-range.ts';
import { sequenceRangeViewOf, type TSequenceRange } from './sequence-range-view.ts';

const ENCF = /^E(\d{2})(\d{10})$/;
const ECF_TYPES = new Set(['31', '32', '33', '34', '41', '43', '44', '45', '46', '47']);
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

function invalid(reason: string, path: string, message: string): AppError {
  return new AppError('SEQUENCE_RANGE_INVALID', message, { details: { reason, path } });
}

/**
 * `POST /{environment}/secuencias`: registers an active eNCF range of one type (optional: emission
 * neither needs nor moves it; rule 16 then compares `FechaVencimientoSecuencia` with it). 400
 * `SEQUENCE_RANGE_INVALID` for a range that is not one type (`type_mismatch`), reversed
 * (`reversed`), an unknown type or a bad eNCF or date; 409 `SEQUENCE_RANGE_OVERLAP` for a range
 * sharing numbers with another of the same type (the exclusion constraint decides, races included).
 * In `eCF`, 423 `PRODUCTION_NOT_ACTIVE` until the account's production authorization is active
 * (checked first, as emission does): the tax authority authorizes production sequences
 * only to an authorized electronic issuer, so there is no production range to register before.
 */
export async function registerSequenceRange(options: {
  database: TDatabase;
  tenantId: string;
  environment: Environment;
  /** e-CF type code, `31` … `47`. */
  type: string;
  from: string;
  to: string;
  /** `YYYY-MM-DD`. */
  sequenceExpirationDate: string;
  now?: Date;
}): Promise<TSequenceRange> {
  const { database, tenantId, environment, type } = options;
  await assertAccountProductionActive({ database, tenantId, environment });
  if (!ECF_TYPES.has(type)) throw invalid('type_invalid', 'type', `${type} is not an e-CF type.`);
  const from = ENCF.exec(options.from);
  if (from === null) throw invalid('encf_invalid', 'from', 'An eNCF is E, a two-digit type and ten digits.');
  const to = ENCF.exec(options.to);
  if (to === null) throw invalid('encf_invalid', 'to', 'An eNCF is E, a two-digit type and ten digits.');
  if (from[1] !== type)
    throw invalid('type_mismatch', 'from', `${options.from} is not an eNCF of type ${type}.`);
  if (to[1] !== type) throw invalid('type_mismatch', 'to', `${options.to} is not an eNCF of type ${type}.`);
  const firstNumber = Number(from[2]);
  const lastNumber = Number(to[2]);
  if (firstNumber === 0) throw invalid('encf_invalid', 'from', 'Sequences start at 1.');
  if (firstNumber > lastNumber)
    throw invalid('reversed', 'to', `The range starts after it ends (${options.from} > ${options.to}).`);
  const date = ISO_DATE.exec(options.sequenceExpirationDate);
  const parsed = date === null ? null : new Date(`${options.sequenceExpirationDate}T00:00:00Z`);
  if (
    date === null ||
    parsed === null ||
    Number.isNaN(parsed.getTime()) ||
    parsed.toISOString().slice(0, 10) !== options.sequenceExpirationDate
  )
    throw invalid('date_invalid', 'sequenceExpirationDate', 'A calendar date YYYY-MM-DD.');

  const prefix = `E${type}`;
  try {
    const row = await insertSequenceRange(database, {
      id: randomUUID(),
      tenantId,
      environment,
      type: Number(type),
      prefix,
      firstEncf: options.from,
      lastEncf: options.to,
      firstNumber,
      lastNumber,
      sequenceExpirationDate: options.sequenceExpirationDate,
      registeredAt: options.now ?? new Date(),
    });
    forgetNoRegisteredRanges(tenantId, environment);
    return sequenceRangeViewOf({ ...row, used: 0, annulled: 0 });
  } catch (error) {
    if (!isExclusionViolation(error)) throw error;
    const existing = await findOverlappingSequenceRange(database, {
      tenantId,
      environment,
      prefix,
      firstNumber,
      lastNumber,
    });
    throw new AppError('SEQUENCE_RANGE_OVERLAP', 'The range overlaps a registered range of the same type.', {
      details: existing ? { rangeId: existing.id, from: existing.firstEncf, to: existing.lastEncf } : {},
    });
  }
}
