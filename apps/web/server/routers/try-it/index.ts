import { createRouter } from '../../trpc/init.ts';
import { emit } from './emit.ts';
import { preflight } from './preflight.ts';
import { status } from './status.ts';

/** Try it (TesteCF only): preflight, test emission and its live status. */
export const tryItRouter = createRouter({
  preflight,
  emit,
  status,
});
