import { createRouter } from '../../trpc/init.ts';
import { currentSession } from './current-session.ts';
import { signOutEverywhere } from './sign-out-everywhere.ts';
import { switchTenant } from './switch-tenant.ts';

/** The signed-in user's own session: who they are, which tenant they work in, signing out everywhere. */
export const sessionRouter = createRouter({ current: currentSession, switchTenant, signOutEverywhere });
