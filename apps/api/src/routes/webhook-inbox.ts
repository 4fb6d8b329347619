import type { FastifyInstance } from 'fastify';
import type { TDatabase } from '@ecf/db';
import { recordWebhookInboxRequest } from '@ecf/services';
import { ROUTES } from '@ecf/contract';

/**
 * `POST /webhook-inbox/{token}`: the TesteCF test inbox (issue 27). Public, the token is the
 * credential; the body went through the one JSON reader of the edge (route-limits.ts:
 * `webhookInbox`), and the bytes kept are the text as received, re-encoded (strict UTF-8: the same
 * bytes), so the portal checks the signature on what was signed. Unknown token: 404 NOT_FOUND.
 */
export function registerWebhookInboxRoutes(
  app: FastifyInstance,
  options: { database: TDatabase; now?: () => Date },
): void {
  app.post(ROUTES.webhookInbox.path, async (request) => {
    const { token } = ROUTES.webhookInbox.params.parse(request.params);
    const recorded = await recordWebhookInboxRequest({
      database: options.database,
      token,
      headers: request.headers,
      body: Buffer.from(request.rawBody ?? '', 'utf8'),
      ...(options.now === undefined ? {} : { now: options.now }),
    });
    return { ok: true, requestId: recorded.requestId, receivedAt: recorded.receivedAt.toISOString() };
  });
}
