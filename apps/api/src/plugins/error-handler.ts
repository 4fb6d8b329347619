import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ZodError } from 'zod';
import { AppError, type TErrorCode } from '@ecf/services';

/** The spec's `ErrorResponse`. */
export type TErrorResponse = {
  ok: false;
  error: { code: string; message: string; details: Record<string, unknown> };
  correlationId: string;
};

export function sendError(request: FastifyRequest, reply: FastifyReply, error: AppError): FastifyReply {
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
const FASTIFY_CODES: Record<string, TErrorCode> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'UNSUPPORTED_CONTENT_TYPE',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'INVALID_REQUEST',
  FST_ERR_CTP_BODY_TOO_LARGE: 'BODY_TOO_LARGE',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'INVALID_JSON',
  FST_ERR_CTP_INVALID_JSON_BODY: 'INVALID_JSON',
};

/** Turns anything thrown into an `AppError`; unknown failures become an opaque 500. */
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
  if (mapped === 'BODY_TOO_LARGE') {
    return new AppError('BODY_TOO_LARGE', `The request body exceeds ${bodyLimitBytes} bytes.`, {
      details: { limitBytes: bodyLimitBytes },
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
  return new AppError('INTERNAL_ERROR', 'An unexpected error occurred. Quote the correlationId to support.', {
    cause: error,
  });
}

export function registerErrorHandler(app: FastifyInstance, options: { bodyLimitBytes: number }): void {
  app.setErrorHandler((error, request, reply) => {
    const appError = toAppError(error, options.bodyLimitBytes);
    if (appError.code === 'INTERNAL_ERROR') {
      request.log.error({ err: error }, 'unexpected error');
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
