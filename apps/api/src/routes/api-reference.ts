import type { FastifyInstance } from 'fastify';
import fastifyApiReference from '@scalar/fastify-api-reference';
import { ROUTES } from '@ecf/contract';

/**
 * Where the API reference is served. Scalar's plugin answers `GET /docs` with a redirect to the
 * page, `GET /docs/`, which loads `GET /docs/js/scalar.js`: the renderer bundled in the package,
 * so the page works with no internet access (no CDN, no web fonts).
 */
export const API_REFERENCE_PATH = '/docs';

/** `/docs` and what the renderer registers under it. */
export function isApiReferenceRoute(url: string): boolean {
  return url === API_REFERENCE_PATH || url.startsWith(`${API_REFERENCE_PATH}/`);
}

/**
 * GET /docs: a public page rendering `/openapi.json`, the same document the API serves (fetched by
 * the browser, so the page always shows what this process documents).
 */
export function registerApiReference(app: FastifyInstance): void {
  void app.register(fastifyApiReference, {
    routePrefix: API_REFERENCE_PATH,
    logLevel: 'warn',
    configuration: {
      url: ROUTES.openapi.path,
      pageTitle: 'e-CF service: API reference',
      // Scalar's defaults reach the internet (web fonts, telemetry, its AI agent, its hosted
      // developer tools); this page must work, and stay, on the API's own origin.
      withDefaultFonts: false,
      telemetry: false,
      agent: { disabled: true },
      showDeveloperTools: 'never',
      hideClientButton: true,
    },
  });
}
