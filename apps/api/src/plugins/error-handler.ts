import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ZodError } from 'zod';
import { AppError, databaseBusyError, type TErrorCode } from '@ecf/services';
import { bodyTooLarge, DEFAULT_BODY_LIMIT_BYTES } from './body-limits.ts';

/** The spec's `ErrorResponse`. */
export type TErrorResponse = {
  ok: false;
  error: { code: string; message: string; details: Record<string, unknown> };
  correlationId: string;
};

/**
 * Answers `error` as the spec's ErrorResponse (status from the code's table, `correlationId` in the
 * body and in `x-correlation-id`: set here too because router refusals never ran the onRequest hook).
 */
export function sendError(request: FastifyRequest, reply: FastifyReply, error: AppError): FastifyReply {
  reply.header('x-correlation-id', request.id);
  for (const [name, value] of Object.entries(error.headers)) reply.header(name, value);
  const body: TErrorResponse = {
    ...error.body,
    ok: false,
    error: { code: error.code, message: error.message, details: { code: error.code, ...error.details } },
    correlationId: request.id,
  };
  return reply.code(error.status).type('application/json; charset=utf-8').send(body);
}

/** Fastify's own client errors, translated into our codes. */
const FASTIFY_CODES: Record<
  string,
  Extract<TErrorCode, 'UNSUPPORTED_CONTENT_TYPE' | 'INVALID_REQUEST' | 'BODY_TOO_LARGE' | 'INVALID_JSON'>
> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'UNSUPPORTED_CONTENT_TYPE',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'INVALID_REQUEST',
  FST_ERR_CTP_BODY_TOO_LARGE: 'BODY_TOO_LARGE',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'INVALID_JSON',
  FST_ERR_CTP_INVALID_JSON_BODY: 'INVALID_JSON',
};

/**
 * Turns anything thrown into an `AppError`; unknown failures become an opaque 500. `bodyLimitBytes`
 * is the limit of the request's route (BODY_TOO_LARGE names it).
 */
export function toAppError(error: unknown, bodyLimitBytes: number): AppError {
  if (error instanceof AppError) return error;
  if (error instanceof ZodError) {
    return new AppError('INVALID_REQUEST', 'The request does not match the contract.', {
      details: {
        issues: error.issues.map((issue) => ({
          path: issue.path.join('.'),
          code: issue.code,
          message: issue.message,
        })),
      },
    });
  }
  const fastifyError = error as Partial<FastifyError>;
  const mapped = fastifyError.code ? FASTIFY_CODES[fastifyError.code] : undefined;
  if (mapped === 'BODY_TOO_LARGE') return bodyTooLarge(bodyLimitBytes);
  if (fastifyError.code === 'FST_ERR_CTP_INVALID_CONTENT_LENGTH') {
    return new AppError('INVALID_REQUEST', 'The body is not as long as its Content-Length says.', {
      details: { reason: 'content_length_mismatch' },
    });
  }
  if (mapped === 'UNSUPPORTED_CONTENT_TYPE') {
    return new AppError('UNSUPPORTED_CONTENT_TYPE', 'Send the body as application/json.', {
      details: { accepted: ['application/json'] },
    });
  }
  if (mapped) return new AppError(mapped, fastifyError.message ?? 'Bad request.');
  if (fastifyError.statusCode && fastifyError.statusCode >= 400 && fastifyError.statusCode < 500) {
    return new AppError('INVALID_REQUEST', fastifyError.message ?? 'Bad request.');
  }
  // No database connection to be had (pool full past its timeout, server out of slots): 503 with
  // Retry-After, the request may be sent again (issue 25 item 8).
  const busy = databaseBusyError(error);
  if (busy) return busy;
  return new AppError('INTERNAL_ERROR', 'An unexpected error occurred. Quote the correlationId to support.', {
    cause: error,
  });
}

export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error, request, reply) => {
    const appError = toAppError(error, request.routeOptions.bodyLimit ?? DEFAULT_BODY_LIMIT_BYTES);
    if (appError.code === 'INTERNAL_ERROR') {
      request.log.error({ err: error }, 'unexpected error');
    } else if (appError.details.reason === 'database_busy') {
      request.log.warn({ err: error }, 'no database connection free: answered 503');
    } else {
      request.log.info({ code: appError.code }, 'request refused');
    }
    return sendError(request, reply, appError);
  });
  app.setNotFoundHandler((request, reply) =>
    sendError(
      request,
      reply,
      new AppError('ROUTE_NOT_FOUND', `No route ${request.method} ${request.url.split('?')[0]}.`),
    ),
  );
}
