import { AppError } from '../shared/errors.ts';
import {
  validateDocumentSubmission,
  type TSubmissionContext,
  type TSubmissionIssue,
} from './validate-document-submission.ts';

/**
 * Preflight (`POST /{environment}/documentos-ecf?validate=true`): the emission's validation and
 * nothing else: nothing stored, signed or sent, the eNCF not reserved. 422 `VALIDATION_FAILED` with
 * `errors` and `warnings` when the document is invalid.
 */
export async function preflightDocument(
  options: TSubmissionContext & { rawBody: string },
): Promise<{ encf: string; type: string; warnings: TSubmissionIssue[] }> {
  const validation = await validateDocumentSubmission(options);
  if (!validation.success) {
    throw new AppError('VALIDATION_FAILED', `The document has ${validation.errors.length} error(s).`, {
      details: { errorCount: validation.errors.length },
      body: { errors: validation.errors, warnings: validation.warnings },
    });
  }
  return { encf: validation.data.encf, type: `E${validation.data.type}`, warnings: validation.warnings };
}
