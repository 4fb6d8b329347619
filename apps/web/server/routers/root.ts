/**
 * The portal's tRPC router: ONE registration line per area. A later page adds its area folder
 * (`server/routers/<area>/`: one file per procedure beside its schemas, an `index.ts` router) and
 * one line here, then its rows in the role × procedure matrix (server/routers/procedure-matrix.test.ts).
 */
import { createRouter } from '../trpc/init.ts';
import { auditRouter } from './audit/index.ts';
import { apiKeysRouter } from './api-keys/index.ts';
import { certificateRouter } from './certificate/index.ts';
import { accountRouter } from './account/index.ts';
import { overviewRouter } from './overview/index.ts';
import { documentsRouter } from './documents/index.ts';
import { tryItRouter } from './try-it/index.ts';
import { invitationsRouter } from './invitations/index.ts';
import { membersRouter } from './members/index.ts';
import { passwordRouter } from './password/index.ts';
import { sessionRouter } from './session/index.ts';
import { supportRouter } from './support/index.ts';
import { webhooksRouter } from './webhooks/index.ts';
import { sequencesRouter } from './sequences/index.ts';
import { annulmentsRouter } from './annulments/index.ts';
import { commercialApprovalsRouter } from './commercial-approvals/index.ts';
import { inboundRouter } from './inbound/index.ts';
import { certificationRouter } from './certification/index.ts';
import { partnerRouter } from './partner/index.ts';
import { exportsRouter } from './exports/index.ts';
import { liveRouter } from './live/index.ts';

export const appRouter = createRouter({
  session: sessionRouter,
  overview: overviewRouter,
  account: accountRouter,
  members: membersRouter,
  invitations: invitationsRouter,
  password: passwordRouter,
  audit: auditRouter,
  apiKeys: apiKeysRouter,
  certificate: certificateRouter,
  documents: documentsRouter,
  tryIt: tryItRouter,
  support: supportRouter,
  webhooks: webhooksRouter,
  sequences: sequencesRouter,
  annulments: annulmentsRouter,
  commercialApprovals: commercialApprovalsRouter,
  inbound: inboundRouter,
  certification: certificationRouter,
  partner: partnerRouter,
  exports: exportsRouter,
  live: liveRouter,
});

export type AppRouter = typeof appRouter;
