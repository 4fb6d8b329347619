/**
 * The bodies of the certification routes, read strictly with the spec's codes (a generic 400 would
 * not tell a client which of its certification mistakes it made): `CertificationSetRequest`, the
 * restart's `{ part }` and the commercial approvals' `{ workbookBase64 }`.
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { AppError, type TErrorCode } from '../shared/errors.ts';

import { WORKBOOK_BASE64_MAX_CHARACTERS } from '@ecf/contract';

/** Longest `workbookBase64` accepted: 700 KB of base64 text (interface spec, Limits; the contract's). */
export { WORKBOOK_BASE64_MAX_CHARACTERS };

/** Most rows of a sheet in the JSON form (the tax authority's sets have 25 and 4; other software's a few hundred at most). */
export const JSON_SET_MAX_ROWS = 1000;

/** Most columns of a row in the JSON form (the tax authority's sheet has about 5,200). */
export const JSON_SET_MAX_COLUMNS = 10_000;

const ZJsonSetRows = z.array(z.record(z.string(), z.unknown())).max(JSON_SET_MAX_ROWS);

/** `CertificationSetRequest` (docs/certification.md). */
export const ZCertificationSetRequest = z.strictObject({
  workbookBase64: z.string().optional(),
  set: z.strictObject({ ecf: ZJsonSetRows, rfce: ZJsonSetRows.default([]) }).optional(),
  taxauthModel: z.boolean().optional(),
  part: z.enum(['data', 'simulation']).optional(),
});

export type TCertificationSetRequest = z.infer<typeof ZCertificationSetRequest>;

/** What a set request asks for, read and checked. */
export type TCertificationSetSource =
  | { kind: 'workbook'; content: Uint8Array; sha256: string }
  | { kind: 'json'; ecf: Record<string, unknown>[]; rfce: Record<string, unknown>[]; sha256: string }
  | { kind: 'taxauth_model' }
  /** A set uploaded before (Partner `testSetRef`, the case's set). */
  | { kind: 'stored'; setId: string }
  /** A set of the official catalogue (Partner `officialSetRef`, the case's set). */
  | { kind: 'official'; ref: string };

export type TReadSetRequest = {
  source: TCertificationSetSource;
  part: 'data' | 'simulation' | undefined;
  /** SHA-256 of the request as it matters (Partner idempotency): the source's bytes, the part. */
  fingerprint: string;
};

function refuse(code: TErrorCode, message: string, details: Record<string, unknown>): never {
  throw new AppError(code, message, { details });
}

/** The issues of a zod failure, as every 400 of the API lists them. */
function issuesOf(error: z.ZodError): Array<{ path: string; code: string; message: string }> {
  return error.issues.map((issue) => ({
    path: issue.path.map(String).join('.'),
    code: issue.code,
    message: issue.message,
  }));
}

/**
 * Decodes `workbookBase64`: at most {@link WORKBOOK_BASE64_MAX_CHARACTERS}, the base64 alphabet
 * (line breaks and spaces tolerated, as encoders wrap), not empty. `code` is the route's 400 code.
 */
export function decodeWorkbookBase64(value: string, code: TErrorCode): Uint8Array {
  if (value.length > WORKBOOK_BASE64_MAX_CHARACTERS) {
    refuse(code, `workbookBase64 may have at most ${WORKBOOK_BASE64_MAX_CHARACTERS} characters (700 KB).`, {
      field: 'workbookBase64',
      reason: 'too_large',
      maxLength: WORKBOOK_BASE64_MAX_CHARACTERS,
      length: value.length,
    });
  }
  const compact = value.replace(/\s+/g, '');
  if (compact === '' || !/^[A-Za-z0-9+/]+={0,2}$/.test(compact) || compact.length % 4 === 1) {
    refuse(code, 'workbookBase64 is not base64 text of the workbook.', {
      field: 'workbookBase64',
      reason: compact === '' ? 'empty' : 'not_base64',
    });
  }
  return new Uint8Array(Buffer.from(compact, 'base64'));
}

/**
 * Reads a `CertificationSetRequest`: exactly one of `workbookBase64`, `set` and `taxauthModel:
 * true`; 400 `INVALID_CERTIFICATION_REQUEST` otherwise (`details.reason`: `not_an_object`,
 * `invalid_fields` with `issues[]`, `taxauth_model_not_boolean`, `sources_combined`, `set_missing`,
 * `too_large`, `not_base64`, `empty`).
 */
export function readCertificationSetRequest(
  body: unknown,
  options: {
    /** The set to run when the body names none (a Partner case's `testSetRef`). */
    storedSetId?: string | null;
    /** The official set to run when the body names none and there is no `storedSetId` (a Partner case's `officialSetRef`). */
    officialSetRef?: string | null;
  } = {},
): TReadSetRequest {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    refuse('INVALID_CERTIFICATION_REQUEST', 'The body must be a CertificationSetRequest object.', {
      reason: 'not_an_object',
    });
  }
  const record = body as Record<string, unknown>;
  if ('taxauthModel' in record && typeof record['taxauthModel'] !== 'boolean') {
    refuse('INVALID_CERTIFICATION_REQUEST', 'taxauthModel must be a boolean.', {
      field: 'taxauthModel',
      reason: 'taxauth_model_not_boolean',
    });
  }
  const parsed = ZCertificationSetRequest.safeParse(body);
  if (!parsed.success) {
    refuse('INVALID_CERTIFICATION_REQUEST', 'The CertificationSetRequest does not match its contract.', {
      reason: 'invalid_fields',
      issues: issuesOf(parsed.error),
    });
  }
  const request = parsed.data;
  const sources = [
    request.workbookBase64 !== undefined ? 'workbookBase64' : null,
    request.set !== undefined ? 'set' : null,
    request.taxauthModel === true ? 'taxauthModel' : null,
  ].filter((source): source is string => source !== null);
  if (sources.length > 1) {
    refuse(
      'INVALID_CERTIFICATION_REQUEST',
      'Send one set: workbookBase64, set, or taxauthModel true (the tax authority model cannot be combined with an own set).',
      { reason: 'sources_combined', fields: sources },
    );
  }
  if (sources.length === 0 && options.storedSetId) {
    return {
      source: { kind: 'stored', setId: options.storedSetId },
      part: request.part,
      fingerprint: fingerprintOf(`stored:${options.storedSetId}`, request.part),
    };
  }
  if (sources.length === 0 && options.officialSetRef) {
    return {
      source: { kind: 'official', ref: options.officialSetRef },
      part: request.part,
      fingerprint: fingerprintOf(`official:${options.officialSetRef}`, request.part),
    };
  }
  if (sources.length === 0) {
    refuse(
      'INVALID_CERTIFICATION_REQUEST',
      'Send the set: workbookBase64 (the tax authority workbook), set (its rows as JSON) or taxauthModel true.',
      { reason: 'set_missing' },
    );
  }
  const part = request.part;
  if (request.workbookBase64 !== undefined) {
    const content = decodeWorkbookBase64(request.workbookBase64, 'INVALID_CERTIFICATION_REQUEST');
    const sha256 = createHash('sha256').update(content).digest('hex');
    return { source: { kind: 'workbook', content, sha256 }, part, fingerprint: fingerprintOf(sha256, part) };
  }
  if (request.set !== undefined) {
    for (const [sheet, rows] of [
      ['ecf', request.set.ecf],
      ['rfce', request.set.rfce],
    ] as const) {
      const wide = rows.findIndex((row) => Object.keys(row).length > JSON_SET_MAX_COLUMNS);
      if (wide !== -1) {
        refuse(
          'INVALID_CERTIFICATION_REQUEST',
          `set.${sheet}[${wide}] has more than ${JSON_SET_MAX_COLUMNS} columns.`,
          {
            field: `set.${sheet}[${wide}]`,
            reason: 'too_large',
          },
        );
      }
    }
    const text = JSON.stringify(request.set);
    const sha256 = createHash('sha256').update(text).digest('hex');
    return {
      source: { kind: 'json', ecf: request.set.ecf, rfce: request.set.rfce, sha256 },
      part,
      fingerprint: fingerprintOf(sha256, part),
    };
  }
  return { source: { kind: 'taxauth_model' }, part, fingerprint: fingerprintOf('taxauth_model', part) };
}

function fingerprintOf(source: string, part: string | undefined): string {
  return createHash('sha256')
    .update(`${source}\n${part ?? ''}`)
    .digest('hex');
}

/** The restart's body: `{ part }` and nothing else; 400 `CERTIFICATION_PART_INVALID` otherwise. */
export function readRestartRequest(body: unknown): { part: 'data' | 'simulation' } {
  const parsed = z.strictObject({ part: z.enum(['data', 'simulation']) }).safeParse(body);
  if (!parsed.success) {
    refuse(
      'CERTIFICATION_PART_INVALID',
      'Send { "part": "data" } or { "part": "simulation" } and nothing else.',
      {
        field: 'part',
        allowed: ['data', 'simulation'],
        issues: issuesOf(parsed.error),
      },
    );
  }
  return parsed.data;
}

/**
 * The commercial approvals' body: `{ workbookBase64 }` only; 400 `COMMERCIAL_APPROVAL_SET_REQUIRED`
 * when it is missing, empty or other properties come with it, or the text is not base64 or too long.
 */
export function readApprovalSetRequest(body: unknown): { content: Uint8Array; sha256: string } {
  const parsed = z.strictObject({ workbookBase64: z.string() }).safeParse(body);
  if (!parsed.success) {
    refuse(
      'COMMERCIAL_APPROVAL_SET_REQUIRED',
      'Send { "workbookBase64": "<the ACEECF_Generadas workbook, base64>" } and nothing else.',
      { field: 'workbookBase64', issues: issuesOf(parsed.error) },
    );
  }
  const content = decodeWorkbookBase64(parsed.data.workbookBase64, 'COMMERCIAL_APPROVAL_SET_REQUIRED');
  return { content, sha256: createHash('sha256').update(content).digest('hex') };
}
