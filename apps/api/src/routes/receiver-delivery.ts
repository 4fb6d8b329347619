import type { FastifyInstance } from 'fastify';
import type { TXsdValidators } from '@ecf/fiscal-core';
import { reconcileReceiverDelivery } from '@ecf/services';
import { ROUTES } from '@ecf/contract';
import { principalOf, requireApiKey, type TAuthenticationContext } from '../plugins/authentication.ts';

export type TReceiverDeliveryRoutesOptions = TAuthenticationContext & { xsd: TXsdValidators };

/** POST /{environment}/documentos-ecf/{documentId}/entrega-receptor/reconciliar (issue 6). */
export function registerReceiverDeliveryRoutes(
  app: FastifyInstance,
  options: TReceiverDeliveryRoutesOptions,
): void {
  const route = ROUTES.reconcileReceiverDelivery;
  app.post(route.path, { preHandler: requireApiKey(options, route.scopes) }, async (request) => {
    const principal = principalOf(request);
    const params = route.params.parse(request.params);
    const body = route.body.parse(request.body ?? {});
    const result = await reconcileReceiverDelivery({
      database: options.database,
      tenantId: principal.tenantId,
      environment: principal.environment,
      documentId: params.documentId,
      request: body,
      xsdValidators: options.xsd,
      now: new Date(),
    });
    return { ok: true, ...result };
  });
}
