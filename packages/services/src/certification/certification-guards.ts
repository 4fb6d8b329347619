/**
 * Checks every certification use-case shares: CerteCF only, an active certificate, and the case
 * decision after a change.
 */
import type { CertificationStep, Environment, TDatabase, TSql } from '@ecf/db';
import {
  changeCertificationCase,
  findActiveCertificateRow,
  findManagingPartnerId,
  type TCertificationCaseRow,
} from '../persistence/index.ts';
import { AppError } from '../shared/errors.ts';
import { caseDecision } from './certification-steps.ts';

/** Certification happens in CerteCF: 409 `CERTIFICATION_ENVIRONMENT_REQUIRED` elsewhere. */
export function assertCertificationEnvironment(environment: Environment): void {
  if (environment !== 'CerteCF') {
    throw new AppError(
      'CERTIFICATION_ENVIRONMENT_REQUIRED',
      'Certification runs in CerteCF: use the CerteCF path and a CerteCF key.',
      { details: { environment, required: 'CerteCF' } },
    );
  }
}

/**
 * A direct account's certification routes (API and portal) refuse an account its Partner manages:
 * 409 `CERTIFICATION_MANAGED_BY_PARTNER` (the Partner runs it through the Partner API).
 */
export async function assertDirectCertification(database: TDatabase, tenantId: string): Promise<void> {
  if ((await findManagingPartnerId(database, tenantId)) !== null) {
    throw new AppError(
      'CERTIFICATION_MANAGED_BY_PARTNER',
      "This account's certification is run by its Partner through the Partner API.",
    );
  }
}

/** Signing needs the account's certificate: 409 `CERTIFICATE_NOT_ACTIVE` without one. */
export async function assertCertificateActive(database: TDatabase, tenantId: string): Promise<void> {
  if ((await findActiveCertificateRow(database, tenantId)) === null) {
    throw new AppError(
      'CERTIFICATE_NOT_ACTIVE',
      'The account has no active signing certificate: upload one before certifying (nothing was created).',
    );
  }
}

/**
 * Completes (and revokes) steps of a case and moves it on: the next step, and its state
 * (`resume`: a failed case is in progress again; `fail`: a run failed).
 */
export async function moveCase(options: {
  database: TDatabase;
  caseId: string;
  now: Date;
  complete?: ReadonlyArray<{ step: CertificationStep; source: string; reference?: string | null }>;
  revoke?: readonly CertificationStep[];
  resume?: boolean;
  fail?: boolean;
  testSetId?: string | null;
  /** The caller's transaction: the move commits with the change that caused it. */
  sql?: TSql;
}): Promise<TCertificationCaseRow> {
  return changeCertificationCase(options.database, {
    caseId: options.caseId,
    ...(options.sql ? { sql: options.sql } : {}),
    ...(options.complete ? { complete: options.complete } : {}),
    ...(options.revoke ? { revoke: options.revoke } : {}),
    now: options.now,
    decide: (current, completed) => ({
      ...caseDecision({
        state: current.state,
        completed,
        now: options.now,
        ...(options.resume ? { resume: true } : {}),
        ...(options.fail ? { fail: true } : {}),
      }),
      ...(current.state === 'approved' ? { approvedAt: current.approvedAt } : {}),
      ...(options.testSetId !== undefined ? { testSetId: options.testSetId } : {}),
    }),
  });
}
