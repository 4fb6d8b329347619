/**
 * The active tenant's production state for the eCF pages (issue 27: what opens production when it
 * is not active), read once per request however many server components ask (React's `cache`).
 */
import 'server-only';
import { cache } from 'react';
import { serverApi } from './trpc/server-caller.ts';

export const activeProductionState = cache(
  async () => (await (await serverApi()).account.get()).productionState,
);
