import { createRouter } from '../../trpc/init.ts';
import { liveDocumentStatuses } from './document-statuses.ts';

/**
 * Live status (issue 27): the light reads the portal's live pages poll (apps/web/README.md "Live
 * status"). The overview, the support desk and the webhook deliveries poll their own page's
 * procedure; the documents list and the document page poll this router.
 */
export const liveRouter = createRouter({
  documents: liveDocumentStatuses,
});
