import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { TDatabase } from '@ecf/db';
import { AppError, findDocumentStatuses } from '@ecf/services';
import { principalOf, requireApiKey } from '../plugins/authentication.ts';

/** Status batch: at most 100 references per request (50 recommended). */
export const STATUS_BATCH_MAX = 100;

export const ZStatusBatchRequest = z
  .strictObject({
    encfs: z.array(z.string().min(1).max(64)).optional(),
    documentReferences: z.array(z.string().min(1).max(64)).optional(),
  })
  .refine((body) => (body.encfs?.length ?? 0) + (body.documentReferences?.length ?? 0) > 0, {
    message: 'send at least one eNCF in encfs (or a documentId in documentReferences)',
  })
  .refine((body) => (body.encfs?.length ?? 0) + (body.documentReferences?.length ?? 0) <= STATUS_BATCH_MAX, {
    message: `at most ${STATUS_BATCH_MAX} references per request (50 recommended)`,
  });

export function registerDocumentRoutes(app: FastifyInstance, options: { database: TDatabase }): void {
  app.post(
    '/:environment/documentos-ecf/status/batch',
    { preHandler: requireApiKey(options.database, ['status:read']) },
    async (request) => {
      const principal = principalOf(request);
      const body = ZStatusBatchRequest.parse(request.body ?? {});
      const references = [...(body.encfs ?? []), ...(body.documentReferences ?? [])];
      const result = await findDocumentStatuses({
        database: options.database,
        tenantId: principal.tenantId,
        environment: principal.environment,
        references,
      });
      return { ok: true, ...result };
    },
  );

  // Emission and preflight arrive with the direct-account documents capability. Until then the
  // route authenticates like the real one and says plainly that it is not built.
  const authenticatePreflight = requireApiKey(options.database, ['ecf:validate']);
  const authenticateEmission = requireApiKey(options.database, ['ecf:create']);
  app.post('/:environment/documentos-ecf', {
    preHandler: async function authenticate(request, reply) {
      const isPreflight = (request.query as { validate?: string }).validate === 'true';
      await (isPreflight ? authenticatePreflight : authenticateEmission).call(this, request, reply);
    },
    handler: async () => {
      throw new AppError('NOT_IMPLEMENTED', 'e-CF preflight and emission are not available in this version yet.');
    },
  });
}
