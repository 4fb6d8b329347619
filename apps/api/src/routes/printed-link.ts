import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TDatabase } from '@ecf/db';
import { AppError, getPdfByRiLink } from '@ecf/services';
import { ROUTES } from '@ecf/contract';

/** Codes `GET /ri/{token}` answers in plain text with `X-Error-Code` (spec: not an ErrorResponse). */
const PLAIN_TEXT_CODES = new Set(['RI_LINK_INVALID', 'RI_NOT_DELIVERABLE', 'RI_LINK_EXPIRED']);

const PLAIN_TEXT_MESSAGES: Record<string, string> = {
  RI_LINK_INVALID: 'Este enlace no es válido.',
  RI_NOT_DELIVERABLE: 'Este comprobante no está disponible.',
  RI_LINK_EXPIRED: 'Este enlace ha expirado.',
};

/** Whether a raw URL is on the buyer link's path (`/ri` and below), before any routing or decoding. */
export function isBuyerLinkUrl(url: string): boolean {
  return /^\/ri(?:[/?#]|$)/i.test(url);
}

/**
 * A buyer-link refusal in the spec's format: plain text, the code in `X-Error-Code`, never cached.
 * Also used for what the router refuses on `/ri/...` (bad percent-encoding, an overlong token).
 */
export function sendBuyerLinkRefusal(
  request: FastifyRequest,
  reply: FastifyReply,
  error: AppError,
): FastifyReply {
  request.log.info({ code: error.code }, 'buyer link refused');
  return reply
    .code(error.status)
    .header('x-correlation-id', request.id)
    .header('x-error-code', error.code)
    .header('cache-control', 'no-store')
    .header('referrer-policy', 'no-referrer')
    .type('text/plain; charset=utf-8')
    .send(`${PLAIN_TEXT_MESSAGES[error.code] ?? error.message}\n${error.code}\n`);
}

/**
 * The buyer's link to the printed representation: public (the signed token is the credential).
 * Registered under its own prefix so a path Fastify cannot match (a token longer than its
 * 100-character parameter limit, an empty token) also answers `RI_LINK_INVALID` in plain text.
 */
export function registerPrintedLinkRoutes(
  app: FastifyInstance,
  options: { database: TDatabase; linkSecret: string; now?: () => Date },
): void {
  const now = options.now ?? (() => new Date());
  const prefix = '/ri';
  void app.register(
    async (scope) => {
      scope.setErrorHandler((error, request, reply) => {
        if (error instanceof AppError && PLAIN_TEXT_CODES.has(error.code)) {
          return sendBuyerLinkRefusal(request, reply, error);
        }
        throw error;
      });
      scope.setNotFoundHandler(() => {
        // The path is a credential: it is not repeated in the error (which may reach a log).
        throw new AppError('RI_LINK_INVALID', 'No buyer link at this path.');
      });
      scope.get(ROUTES.printedLink.path.slice(prefix.length), async (request, reply) => {
        const { token } = request.params as { token: string };
        const pdf = await getPdfByRiLink({
          database: options.database,
          token,
          linkSecret: options.linkSecret,
          now: now(),
        });
        return reply
          .code(200)
          .type('application/pdf')
          .header('content-disposition', `inline; filename="${pdf.fileName}"`)
          .header('cache-control', 'private, no-store')
          .header('referrer-policy', 'no-referrer')
          .send(pdf.content);
      });
    },
    { prefix },
  );
}
