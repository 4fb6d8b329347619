import { createRouter } from '../../trpc/init.ts';
import { getReceivedApproval } from './get-received-approval.ts';
import { getReceivedDocument } from './get-received-document.ts';
import { listReceivedApprovals } from './list-received-approvals.ts';
import { listReceivedDocuments } from './list-received-documents.ts';

/**
 * Received documents of the active tenant (issue 18, task L): suppliers' e-CF ("Recibidos") and
 * customers' commercial approvals ("Aprobaciones recibidas"). The XML downloads are route
 * handlers (app/api/received/...). Task C adds the accept/reject procedures to its own router.
 */
export const inboundRouter = createRouter({
  listDocuments: listReceivedDocuments,
  getDocument: getReceivedDocument,
  listApprovals: listReceivedApprovals,
  getApproval: getReceivedApproval,
});
