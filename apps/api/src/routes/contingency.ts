import type { FastifyInstance } from 'fastify';
import { findContingencyDocuments } from '@ecf/services';
import { ROUTES } from '@ecf/contract';
import { principalOf, requireApiKey, type TAuthenticationContext } from '../plugins/authentication.ts';

/** GET /{environment}/contingencia: documents waiting for the tax authority to answer again. */
export function registerContingencyRoutes(app: FastifyInstance, options: TAuthenticationContext): void {
  app.get(
    ROUTES.contingency.path,
    { preHandler: requireApiKey(options, ROUTES.contingency.scopes) },
    async (request) => {
      const principal = principalOf(request);
      const items = await findContingencyDocuments({
        database: options.database,
        tenantId: principal.tenantId,
        environment: principal.environment,
      });
      return { ok: true, environment: principal.environment, items };
    },
  );
}
