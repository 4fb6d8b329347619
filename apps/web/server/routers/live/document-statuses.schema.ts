import { z } from 'zod';
import { DOCUMENT_STATUSES } from '@ecf/contract';
import { ZUuid } from '../../../lib/schemas.ts';
import { ZEnvironment } from '../documents/document.schema.ts';

/** The most documents one refresh asks about: a page of the documents list (its largest limit). */
export const LIVE_DOCUMENTS_MAX = 100;

/** The documents a live page watches (the list's pending rows, or the one document of its page). */
export const ZLiveDocumentStatusesInput = z.object({
  environment: ZEnvironment,
  documentIds: z
    .array(ZUuid)
    .min(1, { error: 'Indique al menos un documento.' })
    .max(LIVE_DOCUMENTS_MAX, { error: `A lo sumo ${LIVE_DOCUMENTS_MAX} documentos.` }),
});

export const ZLiveDocumentStatus = z.object({
  documentId: z.string(),
  status: z.enum(DOCUMENT_STATUSES),
  /** When a document in contingency is tried again; null otherwise. */
  nextAttemptAt: z.iso.datetime().nullable(),
  /** The document row's last change: the document page re-renders when it moves. */
  updatedAt: z.iso.datetime(),
});

export const ZLiveDocumentStatusesOutput = z.object({
  /** The documents of the active tenant among those asked, in the order asked; others are left out. */
  items: z.array(ZLiveDocumentStatus),
  /** When the server read them (the page's "Actualizado hace N s" counts from the answer). */
  checkedAt: z.iso.datetime(),
});
