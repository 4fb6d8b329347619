import { createRouter } from '../../trpc/init.ts';
import { getAnnulment } from './get-annulment.ts';
import { listAnnulments } from './list-annulments.ts';
import { prevalidateAnnulment } from './prevalidate-annulment.ts';
import { reconcileAnnulment } from './reconcile-annulment.ts';
import { sendAnnulment } from './send-annulment.ts';

/** Annulments (ANECF) of the active tenant per environment: owners and developers prevalidate, send and reconcile; support reads. */
export const annulmentsRouter = createRouter({
  prevalidate: prevalidateAnnulment,
  send: sendAnnulment,
  list: listAnnulments,
  get: getAnnulment,
  reconcile: reconcileAnnulment,
});
