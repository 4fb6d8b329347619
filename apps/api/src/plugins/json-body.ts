import type { FastifyInstance } from 'fastify';
import { AppError } from '@ecf/services';

declare module 'fastify' {
  interface FastifyRequest {
    /** The JSON body exactly as received: replay fingerprints and decimal text come from it. */
    rawBody?: string;
  }
}

/**
 * JSON bodies are kept as text beside the parsed value: e-CF amounts must be read from their
 * source text (a JSON number "equals its text"), and replay fingerprints are computed over
 * what the client sent.
 */
export function registerJsonBody(app: FastifyInstance): void {
  // Only JSON is accepted unless a route family registers its own parser (e.g. multipart reception).
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    request.rawBody = text;
    if (text.trim() === '') {
      done(new AppError('INVALID_JSON', 'The request body is empty; send a JSON document.'), undefined);
      return;
    }
    try {
      done(null, JSON.parse(text));
    } catch (error) {
      done(
        new AppError('INVALID_JSON', `The request body is not valid JSON: ${(error as Error).message}`, {
          details: { reason: 'syntax' },
        }),
        undefined,
      );
    }
  });
}
