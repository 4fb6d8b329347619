import { createRouter } from '../../trpc/init.ts';
import { getDocument } from './get-document.ts';
import { listDocuments } from './list-documents.ts';
import { locateDocument } from './locate-document.ts';

/** Issued documents of the active tenant (the XML and PDF downloads are route handlers: app/api/documents/). */
export const documentsRouter = createRouter({
  list: listDocuments,
  get: getDocument,
  locate: locateDocument,
});
