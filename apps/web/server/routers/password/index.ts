import { createRouter } from '../../trpc/init.ts';
import { completePasswordReset } from './complete-password-reset.ts';
import { requestPasswordReset } from './request-password-reset.ts';

/** Password resets by e-mail link (signed out). */
export const passwordRouter = createRouter({
  requestReset: requestPasswordReset,
  completeReset: completePasswordReset,
});
