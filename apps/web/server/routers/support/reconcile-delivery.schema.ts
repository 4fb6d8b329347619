import { z } from 'zod';
import { ZUuid } from '../../../lib/schemas.ts';

/** Longest ARECF accepted: the API's limit (an ARECF with its signature is about 3 KB). */
export const RECONCILIATION_ARECF_MAX_LENGTH = 256 * 1024;

/**
 * The API's reconciliation request (`FiscalReconciliationRequest`: outcome, evidence.arecfXml,
 * note) with the document's id: the same limits, checked again by the same use-case.
 */
/** U+0000 or a lone surrogate: JSON may carry them, storage (jsonb, XML) may not (the API refuses them too). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const storable = (text: string) => !text.includes('\u0000') && !LONE_SURROGATE.test(text);

export const ZReconcileDeliveryInput = z.strictObject({
  documentId: ZUuid,
  outcome: z.enum(['sent', 'dispatch_failed'], { error: 'Elija el resultado.' }),
  evidence: z
    .strictObject({
      arecfXml: z
        .string({ error: 'Adjunte el ARECF firmado por el comprador.' })
        .min(1, 'Adjunte el ARECF firmado por el comprador.')
        .max(RECONCILIATION_ARECF_MAX_LENGTH, 'El ARECF no puede pasar de 256 KB.')
        .refine(storable, 'El ARECF contiene caracteres no admitidos.'),
    })
    .optional(),
  note: z
    .string()
    .min(1, 'Escriba la nota o deje el campo vacío.')
    .max(4000, 'La nota no puede pasar de 4000 caracteres.')
    .refine(storable, 'La nota contiene caracteres no admitidos.')
    .optional(),
});

export const ZReconcileDeliveryOutput = z.object({
  documentId: z.uuid(),
  encf: z.string(),
  status: z.string(),
  reconciledAt: z.string(),
  arecfArtifactId: z.string().nullable(),
});
