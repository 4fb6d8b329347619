import type { FastifyInstance } from 'fastify';
import type { TDatabase } from '@ecf/db';
import { findContingencyDocuments } from '@ecf/services';
import { principalOf, requireApiKey } from '../plugins/authentication.ts';

/** GET /{environment}/contingencia: documents waiting for the tax authority to answer again. */
export function registerContingencyRoutes(app: FastifyInstance, options: { database: TDatabase }): void {
  app.get(
    '/:environment/contingencia',
    { preHandler: requireApiKey(options.database, ['ecf:read', 'status:read']) },
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
