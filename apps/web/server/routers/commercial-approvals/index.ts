import { createRouter } from '../../trpc/init.ts';
import { getCommercialApproval } from './get-commercial-approval.ts';
import { reconcileCommercialApproval } from './reconcile-commercial-approval.ts';
import { submitCommercialApproval } from './submit-commercial-approval.ts';

/**
 * Sending a commercial approval (ACECF) for a received e-CF (issue 18, task C): owners, developers
 * and accountants read (`inbound.read`, support too); owners and accountants accept, reject and
 * reconcile (`inbound.approve`).
 */
export const commercialApprovalsRouter = createRouter({
  get: getCommercialApproval,
  submit: submitCommercialApproval,
  reconcile: reconcileCommercialApproval,
});
