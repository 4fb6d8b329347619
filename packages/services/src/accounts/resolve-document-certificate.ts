import type { TDatabase } from '@ecf/db';
import type { TSigningCertificate } from '@ecf/fiscal-core';
import type { TActiveCertificateRef } from '../persistence/index.ts';
import { AppError } from '../shared/errors.ts';
import type { TCertificateKeyring } from './certificate-keyring.ts';
import { loadActiveCertificate } from './load-active-certificate.ts';

/** Where a pipeline step gets the account's certificate from. */
export type TCertificateSource = {
  /** Master keys to open the tenant's active certificate with. */
  keyring?: TCertificateKeyring | undefined;
  /** Overrides how the tenant's certificate is obtained (tests); default the active one, opened with `keyring`. */
  loadCertificate?: ((tenantId: string) => Promise<TSigningCertificate>) | undefined;
};

/** The certificate of a document's step, or why there is none (each step decides what that means). */
export type TDocumentCertificate =
  | { ok: true; certificate: TSigningCertificate }
  | { ok: false; code: 'CERTIFICATE_NOT_ACTIVE'; message: string };

/**
 * The certificate a step of a document's pipeline authenticates or signs with: the override when
 * given, else the account's active certificate (`active`: its row, read with the document). An
 * account without one is a result, not an error: signing waits, transmission fails, polling and
 * delivery try later. Any other problem (a master key missing) is thrown.
 */
export async function resolveDocumentCertificate(
  options: TCertificateSource & {
    database: TDatabase;
    tenantId: string;
    active?: TActiveCertificateRef;
    step: string;
  },
): Promise<TDocumentCertificate> {
  try {
    if (options.loadCertificate)
      return { ok: true, certificate: await options.loadCertificate(options.tenantId) };
    if (!options.keyring) throw new TypeError(`${options.step}: give keyring or loadCertificate`);
    const certificate = await loadActiveCertificate({
      database: options.database,
      keyring: options.keyring,
      tenantId: options.tenantId,
      ...(options.active === undefined ? {} : { active: options.active }),
    });
    return { ok: true, certificate };
  } catch (error) {
    if (error instanceof AppError && error.code === 'CERTIFICATE_NOT_ACTIVE')
      return { ok: false, code: 'CERTIFICATE_NOT_ACTIVE', message: error.message };
    throw error;
  }
}
