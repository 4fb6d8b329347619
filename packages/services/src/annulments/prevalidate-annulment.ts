import type { Environment, TDatabase } from '@ecf/db';
import type { TXsdValidators } from '@ecf/fiscal-core';
import { findDocumentsInRanges } from '../persistence/index.ts';
import { AppError } from '../shared/errors.ts';
import {
  assertAnnulmentEnvironment,
  buildAnnulmentXml,
  canonicalRequestOf,
  conflictsOf,
  type TAnnulmentRequest,
} from './annulment-model.ts';

export type TAnnulmentPrevalidation = {
  ok: true;
  status: 'valid';
  ranges: Array<{ type: string; from: string; to: string; count: number }>;
  count: number;
  reason: string | null;
  /** Documents of the ranges that never left: an accepted annulment cancels them. */
  coveredDocuments: { cancellable: Array<{ documentId: string; encf: string; status: string }> };
};

/**
 * `POST /{environment}/anulaciones-ecf/prevalidar`: builds the ANECF, checks it against its XSD and
 * checks every document of this tenant in the ranges; sends and stores nothing. 400
 * `ANECF_NOT_AVAILABLE_IN_CERTECF`, `ANECF_INVALID` (`details.errors`), `ANECF_DOCUMENT_CONFLICT`
 * (`details.conflicts[]` with `encf`, `documentId`, `status`, `reason`). Only this tenant's
 * documents are read: another tenant's never appear in `conflicts`.
 */
export async function prevalidateAnnulment(options: {
  database: TDatabase;
  tenant: { id: string; rnc: string };
  environment: Environment;
  request: TAnnulmentRequest;
  xsd: TXsdValidators;
  now?: Date;
}): Promise<TAnnulmentPrevalidation> {
  const { database, tenant, environment, request } = options;
  const now = options.now ?? new Date();
  assertAnnulmentEnvironment(environment);
  const { ranges } = buildAnnulmentXml({ rnc: tenant.rnc, request, now, xsd: options.xsd });
  const documents = await findDocumentsInRanges(database, { tenantId: tenant.id, environment, ranges });
  const conflicts = conflictsOf(documents, now);
  if (conflicts.length > 0)
    throw new AppError(
      'ANECF_DOCUMENT_CONFLICT',
      `${conflicts.length} document(s) of the ranges arrived or could have arrived at the tax authority or the buyer.`,
      { details: { conflicts } },
    );
  const counted = ranges.map((range) => ({
    type: String(range.type),
    from: range.firstEncf,
    to: range.lastEncf,
    count: range.lastNumber - range.firstNumber + 1,
  }));
  return {
    ok: true,
    status: 'valid',
    ranges: counted,
    count: counted.reduce((sum, range) => sum + range.count, 0),
    reason: canonicalRequestOf(request).reason,
    coveredDocuments: {
      cancellable: documents
        .filter((document) => document.status !== 'cancelled')
        .map((document) => ({ documentId: document.id, encf: document.encf, status: document.status })),
    },
  };
}
