import { createRouter } from '../../trpc/init.ts';
import { getFirstSteps } from './get-first-steps.ts';
import { getOverview } from './get-overview.ts';

/** The active tenant's overview per environment (every member, and support with an audit entry). */
export const overviewRouter = createRouter({
  get: getOverview,
  firstSteps: getFirstSteps,
});
