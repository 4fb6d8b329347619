/**
 * The Partner webhook routes (`/partner/v1/webhook-endpoints`, `/webhook-deliveries`): the engine's
 * Partner endpoints (`system = partner`). A field the engine refuses (the URL's target rules, an
 * unknown event type) is the Partner API's 400 `INVALID_PARTNER_PAYLOAD` with the same issues.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TEnqueue } from '@ecf/db';
import {
  AppError,
  createPartnerWebhookEndpoint,
  getFiscalAccount,
  findPartnerWebhookDeliveries,
  findPartnerWebhookEndpoints,
  getPartnerWebhookDelivery,
  replayPartnerWebhookDelivery,
  retirePartnerWebhookEndpoint,
  rotatePartnerWebhookSecret,
  sendPartnerTestWebhook,
  updatePartnerWebhookEndpoint,
  type TCertificateKeyring,
  type TPartnerWebhookEndpoint,
} from '@ecf/services';
import { PARTNER_ROUTES } from '@ecf/contract';
import { parsePartner, partnerPrincipalOf, type TPartnerAuthContext } from './partner-auth.ts';
import { partnerRoute } from './partner-routes.ts';

export type TPartnerWebhookRoutesOptions = TPartnerAuthContext & {
  enqueue: TEnqueue;
  keyring: TCertificateKeyring | undefined;
  allowPrivateTargets: boolean;
};

function endpointBodyOf(endpoint: TPartnerWebhookEndpoint) {
  return {
    ...endpoint,
    createdAt: endpoint.createdAt.toISOString(),
    updatedAt: endpoint.updatedAt.toISOString(),
  };
}

/** The engine's field refusals (INVALID_REQUEST with issues) as the Partner API's payload error. */
async function asPartnerPayload<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof AppError && error.code === 'INVALID_REQUEST') {
      const issues = (error.details['issues'] as Array<{ path: string }> | undefined) ?? [];
      throw new AppError('INVALID_PARTNER_PAYLOAD', error.message, {
        details: { ...error.details, path: issues[0]?.path ?? '' },
      });
    }
    throw error;
  }
}

function keyringOf(options: TPartnerWebhookRoutesOptions): TCertificateKeyring {
  if (options.keyring === undefined)
    throw new AppError(
      'SERVICE_UNAVAILABLE',
      'Webhook secrets cannot be sealed: CERTIFICATE_MASTER_KEY is not set.',
      {
        details: { reason: 'keyring_missing' },
      },
    );
  return options.keyring;
}

const deliveryBodyOf = (delivery: Awaited<ReturnType<typeof getPartnerWebhookDelivery>>) => ({
  deliveryId: delivery.id,
  endpointId: delivery.endpointId,
  eventId: delivery.eventId,
  eventType: delivery.eventType,
  status: delivery.status,
  attempts: delivery.attempts,
  maxAttempts: delivery.maxAttempts,
  nextAttemptAt: delivery.status === 'queued' ? delivery.nextAttemptAt.toISOString() : null,
  lastAttemptAt: delivery.lastAttemptAt?.toISOString() ?? null,
  failureReason: delivery.failureReason,
  createdAt: delivery.createdAt.toISOString(),
  completedAt: delivery.completedAt?.toISOString() ?? null,
  attemptLog: delivery.attemptLog.map((attempt) => ({
    ...attempt,
    startedAt: attempt.startedAt.toISOString(),
  })),
});

export function registerPartnerWebhookRoutes(
  app: FastifyInstance,
  options: TPartnerWebhookRoutesOptions,
): void {
  const { database } = options;
  const R = PARTNER_ROUTES;
  const partnerIdOf = (request: FastifyRequest) => partnerPrincipalOf(request).partner.id;

  partnerRoute(app, options, R.listWebhookEndpoints, async (request) => ({
    ok: true,
    items: (await findPartnerWebhookEndpoints({ database, partnerId: partnerIdOf(request) })).map(
      endpointBodyOf,
    ),
  }));
  partnerRoute(app, options, R.createWebhookEndpoint, async (request, reply) => {
    const body = parsePartner(R.createWebhookEndpoint.body, request.body, 'body');
    const result = await asPartnerPayload(() =>
      createPartnerWebhookEndpoint({
        database,
        partnerId: partnerIdOf(request),
        name: body.name,
        url: body.url,
        ...(body.eventTypes === undefined ? {} : { eventTypes: body.eventTypes }),
        keyring: keyringOf(options),
        allowPrivateTargets: options.allowPrivateTargets,
      }),
    );
    if (result.replayed)
      return reply.code(200).send({ ok: true, endpoint: endpointBodyOf(result.endpoint), replayed: true });
    return reply.code(201).send({
      ok: true,
      endpoint: endpointBodyOf(result.endpoint),
      signingSecret: result.signingSecret,
      replayed: false,
    });
  });
  partnerRoute(app, options, R.updateWebhookEndpoint, async (request) => {
    const { endpointId } = parsePartner(R.updateWebhookEndpoint.params, request.params, 'path');
    const patch = parsePartner(R.updateWebhookEndpoint.body, request.body, 'body');
    const endpoint = await asPartnerPayload(() =>
      updatePartnerWebhookEndpoint({
        database,
        partnerId: partnerIdOf(request),
        endpointId,
        patch,
        allowPrivateTargets: options.allowPrivateTargets,
        enqueue: options.enqueue,
      }),
    );
    return { ok: true, endpoint: endpointBodyOf(endpoint) };
  });
  partnerRoute(app, options, R.retireWebhookEndpoint, async (request) => {
    const { endpointId } = parsePartner(R.retireWebhookEndpoint.params, request.params, 'path');
    const endpoint = await retirePartnerWebhookEndpoint({
      database,
      partnerId: partnerIdOf(request),
      endpointId,
    });
    return { ok: true, endpoint: endpointBodyOf(endpoint) };
  });
  partnerRoute(app, options, R.testWebhookEndpoint, async (request, reply) => {
    const { endpointId } = parsePartner(R.testWebhookEndpoint.params, request.params, 'path');
    const body = parsePartner(R.testWebhookEndpoint.body, request.body, 'body');
    const partnerId = partnerIdOf(request);
    const account = await getFiscalAccount({ database, partnerId, accountId: body.fiscalAccountId });
    const result = await sendPartnerTestWebhook({
      database,
      partnerId,
      endpointId,
      account: { fiscalAccountId: account.id, externalTenantId: account.externalTenantId },
      environment:
        body.environment === 'production' ? 'eCF' : body.environment === 'testecf' ? 'TesteCF' : 'CerteCF',
      enqueue: options.enqueue,
      correlationId: request.id,
    });
    return reply.code(202).send({ ok: true, ...result });
  });
  partnerRoute(app, options, R.rotateWebhookSecret, async (request) => {
    const { endpointId } = parsePartner(R.rotateWebhookSecret.params, request.params, 'path');
    const body = parsePartner(R.rotateWebhookSecret.body, request.body ?? {}, 'body');
    const result = await rotatePartnerWebhookSecret({
      database,
      partnerId: partnerIdOf(request),
      endpointId,
      ...(body.overlapSeconds === undefined ? {} : { overlapSeconds: body.overlapSeconds }),
      keyring: keyringOf(options),
    });
    return { ok: true, endpoint: endpointBodyOf(result.endpoint), signingSecret: result.signingSecret };
  });
  partnerRoute(app, options, R.listWebhookDeliveries, async (request) => {
    const query = parsePartner(R.listWebhookDeliveries.query, request.query, 'query');
    const page = await asPartnerPayload(() =>
      findPartnerWebhookDeliveries({
        database,
        partnerId: partnerIdOf(request),
        ...(query.status === undefined ? {} : { status: query.status }),
        ...(query.cursor === undefined ? {} : { cursor: query.cursor }),
        ...(query.limit === undefined ? {} : { limit: Number(query.limit) }),
      }),
    );
    return { ok: true, items: page.items.map(deliveryBodyOf), nextCursor: page.nextCursor };
  });
  partnerRoute(app, options, R.getWebhookDelivery, async (request) => {
    const { deliveryId } = parsePartner(R.getWebhookDelivery.params, request.params, 'path');
    return {
      ok: true,
      delivery: deliveryBodyOf(
        await getPartnerWebhookDelivery({ database, partnerId: partnerIdOf(request), deliveryId }),
      ),
    };
  });
  partnerRoute(app, options, R.replayWebhookDelivery, async (request) => {
    const { deliveryId } = parsePartner(R.replayWebhookDelivery.params, request.params, 'path');
    const delivery = await replayPartnerWebhookDelivery({
      database,
      partnerId: partnerIdOf(request),
      deliveryId,
      enqueue: options.enqueue,
    });
    return { ok: true, delivery: deliveryBodyOf(delivery) };
  });
}
