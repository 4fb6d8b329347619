import { readCertificationWorkbook, type TApprovalRow } from '@ecf/certification-sets';
import type { Environment, TDatabase, TEnqueue } from '@ecf/db';
import {
  findApprovalItems,
  findApprovalSendByKey,
  findLatestApprovalSend,
  findOpenCertificationCase,
  findStepCompletions,
  insertApprovalSend,
  isIdempotencyKeyTaken,
  storeCertificationSet,
  type TApprovalSendRow,
} from '../persistence/index.ts';
import { AppError } from '../shared/errors.ts';
import { readApprovalSetRequest } from './certification-request.ts';
import { assertCertificateActive, assertCertificationEnvironment } from './certification-guards.ts';
import { buildRowAcecf } from './certification-acecf.ts';
import { approvalsViewOf, type TCertificationApprovalsView } from './certification-views.ts';

export type TSendCertificationApprovalsResult = {
  commercialApprovals: TCertificationApprovalsView;
  replayed: boolean;
};

/**
 * `POST /{environment}/certificacion/aprobaciones-comerciales` `{ workbookBase64 }`: the
 * `ACEECF_Generadas` rows the tax authority generated for this account as buyer, stored with the
 * send and its first job (202); the job signs and sends them one by one, as they are written, and
 * stops at the first rejection. CerteCF only, after the data tests were accepted. 400
 * `COMMERCIAL_APPROVAL_SET_REQUIRED`; 409 `CERTIFICATION_ENVIRONMENT_REQUIRED`,
 * `CERTIFICATE_NOT_ACTIVE`, `CERTIFICATION_DATA_TESTS_PENDING`, `COMMERCIAL_APPROVALS_IN_PROGRESS`;
 * 422 `COMMERCIAL_APPROVAL_SET_INVALID`, `COMMERCIAL_APPROVAL_SET_OTHER_TAXPAYER`.
 */
export async function sendCertificationApprovals(options: {
  database: TDatabase;
  tenant: { id: string; rnc: string };
  environment: Environment;
  body: unknown;
  enqueue: TEnqueue;
  now: Date;
  idempotencyKey?: string | undefined;
}): Promise<TSendCertificationApprovalsResult> {
  const { database, tenant } = options;
  const request = readApprovalSetRequest(options.body);
  assertCertificationEnvironment(options.environment);
  if (options.idempotencyKey !== undefined) {
    const replay = await replayOf(database, tenant.id, options.idempotencyKey, request.sha256);
    if (replay !== null) return replay;
  }
  await assertCertificateActive(database, tenant.id);
  const open = await findOpenCertificationCase(database, tenant.id);
  const completed = new Set(
    open === null ? [] : (await findStepCompletions(database, open.id)).map((row) => row.step),
  );
  if (open === null || !completed.has('data_tests_ecf')) {
    throw new AppError(
      'CERTIFICATION_DATA_TESTS_PENDING',
      'The commercial approval tests come after the tax authority accepted the data tests (a data run that succeeded).',
      { details: { step: open?.step ?? 'registered' } },
    );
  }
  if (open.state === 'approved') {
    throw new AppError(
      'CERTIFICATION_APPROVED',
      'The certification is approved: there is nothing left to send.',
      {
        details: { caseId: open.id },
      },
    );
  }
  const latest = await findLatestApprovalSend(database, open.id);
  if (latest !== null && (latest.state === 'queued' || latest.state === 'running')) {
    throw new AppError(
      'COMMERCIAL_APPROVALS_IN_PROGRESS',
      'A send of the commercial approvals is in progress.',
      {
        details: { sendId: latest.id, state: latest.state },
      },
    );
  }
  // Read for whichever buyer it names: the wrong kind of workbook is invalid, a good one of another buyer is another taxpayer's.
  const read = await readCertificationWorkbook({ content: request.content });
  if (!read.ok) {
    throw new AppError(
      'COMMERCIAL_APPROVAL_SET_INVALID',
      'The commercial approvals workbook cannot be read; each problem names its sheet, row and column.',
      { details: { errors: read.errors.slice(0, 200), errorCount: read.errors.length } },
    );
  }
  if (read.workbook.kind !== 'approval_set') {
    throw new AppError(
      'COMMERCIAL_APPROVAL_SET_INVALID',
      'This is the data-test workbook (ECF, RFCE): the commercial approvals workbook has the sheet ACEECF_Generadas.',
      {
        details: {
          errors: [
            {
              sheet: 'ACEECF_Generadas',
              row: null,
              column: null,
              code: 'WORKBOOK_SHEET_MISSING',
              message: 'Sheet ACEECF_Generadas missing',
            },
          ],
        },
      },
    );
  }
  if (read.workbook.buyerRnc !== tenant.rnc) {
    throw new AppError(
      'COMMERCIAL_APPROVAL_SET_OTHER_TAXPAYER',
      `The commercial approvals workbook answers documents issued to buyer ${read.workbook.buyerRnc}, not to RNC ${tenant.rnc}.`,
      { details: { expectedRnc: tenant.rnc, buyerRnc: read.workbook.buyerRnc } },
    );
  }
  const problems = read.workbook.approvals.flatMap(problemsOf);
  if (problems.length > 0) {
    throw new AppError('COMMERCIAL_APPROVAL_SET_INVALID', `${problems.length} row(s) cannot make an ACECF.`, {
      details: { errors: problems.slice(0, 200), errorCount: problems.length },
    });
  }
  const set = await storeCertificationSet(database, {
    tenantId: tenant.id,
    kind: 'approvals',
    source: 'workbook',
    rnc: read.workbook.buyerRnc,
    sha256: request.sha256,
    content: request.content,
    rows: { approvals: read.workbook.approvals },
    rowCount: read.workbook.approvals.length,
    now: options.now,
  });
  let send: TApprovalSendRow;
  try {
    send = await insertApprovalSend(database, {
      tenantId: tenant.id,
      caseId: open.id,
      setId: set.id,
      idempotencyKey: options.idempotencyKey ?? null,
      requestFingerprint: options.idempotencyKey === undefined ? null : request.sha256,
      items: read.workbook.approvals.map((row, index) => ({
        position: index + 1,
        sheetRow: row.row,
        encf: row.values['eNCF'] ?? '',
        issuerRnc: row.values['RNCEmisor'] ?? '',
        values: row.values,
      })),
      now: options.now,
      enqueue: options.enqueue,
    });
  } catch (error) {
    if (options.idempotencyKey !== undefined && isIdempotencyKeyTaken(error)) {
      const replay = await replayOf(database, tenant.id, options.idempotencyKey, request.sha256);
      if (replay !== null) return replay;
    }
    throw error;
  }
  return {
    commercialApprovals: approvalsViewOf(send, await findApprovalItems(database, send.id)),
    replayed: false,
  };
}

/** The builder's field names as the workbook's columns. */
const ACECF_COLUMN_OF_INPUT: Readonly<Record<string, string>> = {
  rncEmisor: 'RNCEmisor',
  encf: 'eNCF',
  fechaEmision: 'FechaEmision',
  montoTotal: 'MontoTotal',
  rncComprador: 'RNCComprador',
  estado: 'Estado',
  rejectionReason: 'DetalleMotivoRechazo',
  approvedAt: 'FechaHoraAprobacionComercial',
};

/** The cells an ACECF needs (the builder checks their formats when it signs). */
const REQUIRED_COLUMNS = [
  'RNCEmisor',
  'eNCF',
  'FechaEmision',
  'MontoTotal',
  'RNCComprador',
  'Estado',
  'FechaHoraAprobacionComercial',
];

function problemsOf(
  row: TApprovalRow,
): Array<{ sheet: string; row: number; column: string; code: string; message: string }> {
  const missing = REQUIRED_COLUMNS.filter((column) => row.values[column] === undefined).map((column) => ({
    sheet: 'ACEECF_Generadas',
    row: row.row,
    column,
    code: 'WORKBOOK_VALUE_REQUIRED',
    message: `ACEECF_Generadas row ${row.row}: ${column} is empty`,
  }));
  const estado = row.values['Estado'];
  if (estado !== undefined && estado !== '1' && estado !== '2') {
    missing.push({
      sheet: 'ACEECF_Generadas',
      row: row.row,
      column: 'Estado',
      code: 'WORKBOOK_VALUE_INVALID',
      message: `ACEECF_Generadas row ${row.row}: Estado ${estado} is neither 1 (accepted) nor 2 (rejected)`,
    });
  }
  if (missing.length > 0) return missing;
  const built = buildRowAcecf(row.values);
  if (built.success) return [];
  return built.issues.map((issue) => ({
    sheet: 'ACEECF_Generadas',
    row: row.row,
    column: ACECF_COLUMN_OF_INPUT[issue.path] ?? issue.path,
    code: issue.code,
    message: `ACEECF_Generadas row ${row.row}: ${issue.message}`,
  }));
}

async function replayOf(
  database: TDatabase,
  tenantId: string,
  idempotencyKey: string,
  fingerprint: string,
): Promise<TSendCertificationApprovalsResult | null> {
  const existing = await findApprovalSendByKey(database, { tenantId, idempotencyKey });
  if (existing === null) return null;
  if (existing.requestFingerprint !== fingerprint) {
    throw new AppError('IDEMPOTENCY_CONFLICT', 'This Idempotency-Key was used with another workbook.', {
      details: { sendId: existing.id },
    });
  }
  return {
    commercialApprovals: approvalsViewOf(existing, await findApprovalItems(database, existing.id)),
    replayed: true,
  };
}
