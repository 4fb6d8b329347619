import { findWebhookInboxRequests, getWebhookEndpoint as getWebhookEndpointUseCase } from '@ecf/services';
import { tenantProcedure } from '../../trpc/procedures.ts';
import {
  WEBHOOK_INBOX_PAGE_SIZE,
  ZListWebhookInboxRequestsInput,
  ZListWebhookInboxRequestsOutput,
} from './list-webhook-inbox-requests.schema.ts';

/**
 * What a TesteCF test inbox received, newest first (the last 20 of the 100 kept), each with the
 * signature checked against the endpoint's secret as the receiver guide does it. An endpoint of
 * another tenant or environment is NOT_FOUND; one that is not an inbox answers `isInbox: false`.
 */
export const listWebhookInboxRequests = tenantProcedure('webhooks.read')
  .input(ZListWebhookInboxRequestsInput)
  .output(ZListWebhookInboxRequestsOutput)
  .query(async ({ ctx, input }) => {
    await getWebhookEndpointUseCase({
      database: ctx.database,
      tenantId: ctx.tenant.id,
      endpointId: input.endpointId,
      environment: input.environment,
      now: ctx.now,
    });
    const found = await findWebhookInboxRequests({
      database: ctx.database,
      tenantId: ctx.tenant.id,
      endpointId: input.endpointId,
      keyring: ctx.certificateKeyring(),
      limit: WEBHOOK_INBOX_PAGE_SIZE,
      now: ctx.now,
    });
    if (found === null) return { isInbox: false, keepDays: 0, keepRequests: 0, requests: [] };
    return {
      isInbox: true,
      keepDays: found.keepDays,
      keepRequests: found.keepRequests,
      requests: found.requests.map((request) => ({
        id: request.id,
        receivedAt: request.receivedAt.toISOString(),
        headers: request.headers,
        body: request.body,
        bodyBytes: request.bodyBytes,
        bodyTruncated: request.bodyTruncated,
        signature: request.signature.valid
          ? {
              valid: true,
              reason: null,
              secret: request.signature.secret,
              timestamp: request.signature.timestamp,
              skewSeconds: request.signature.skewSeconds,
            }
          : {
              valid: false,
              reason: request.signature.reason,
              secret: null,
              timestamp: request.signature.timestamp,
              skewSeconds: request.signature.skewSeconds,
            },
      })),
    };
  });
