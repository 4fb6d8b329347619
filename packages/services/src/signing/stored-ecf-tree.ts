/** The e-CF tree a queued document is signed from, as emission validated it. */
import type { TDatabase } from '@ecf/db';
import { validateSubmission, type TEcfDocument, type TEcfTree } from '@ecf/fiscal-core';
import { accountDataOf } from '../accounts/index.ts';
import { findTenant, readSubmittedPayloadText, type TDocumentState } from '../persistence/index.ts';
import type { TSigningError } from './signing-results.ts';

/**
 * The e-CF tree to sign. Emission stores the validated tree in the document's `submitted` event
 * (`data.document`, read with the document): that exact tree is signed, so placeholders filled
 * with the submission date stay as the client was told. Documents without it (fixtures, older
 * rows) are validated again from `submittedPayload` with the submission time as "now"; its jsonb
 * text keeps the spelling of numbers (`1.10`), and a JSON string payload is taken as the body text itself.
 */
export async function ecfTreeOf(
  database: TDatabase,
  document: TDocumentState,
  stored: unknown,
): Promise<{ success: true; tree: TEcfDocument } | { success: false; error: TSigningError }> {
  if (isEcfDocument(stored)) return { success: true, tree: stored };

  const tenant = await findTenant(database, { id: document.tenantId });
  if (!tenant) throw new Error(`document ${document.id}: its tenant ${document.tenantId} does not exist`);
  const validated = await validateSubmission(await readSubmittedPayloadText(database, document.id), {
    now: document.submittedAt,
    account: accountDataOf(tenant),
  });
  if (validated.success) return { success: true, tree: validated.data.document };
  return {
    success: false,
    error: {
      code: 'SIGNING_PAYLOAD_INVALID',
      message: 'The stored submission no longer validates; it cannot be signed.',
      retrying: false,
      details: {
        errors: validated.errors.slice(0, 20).map(({ path, code, message }) => ({ path, code, message })),
      },
    },
  };
}

function isEcfDocument(value: unknown): value is TEcfDocument {
  const root = (value as { ECF?: unknown } | null | undefined)?.ECF;
  return typeof root === 'object' && root !== null && !Array.isArray(root);
}

/** The eNCF and type the tree says, to check it is the document's own. */
export function idDocOf(tree: TEcfDocument): { encf: unknown; type: unknown } {
  const idDoc = ((tree.ECF['Encabezado'] as TEcfTree | undefined)?.['IdDoc'] ?? {}) as TEcfTree;
  return { encf: idDoc['eNCF'], type: idDoc['TipoeCF'] };
}
