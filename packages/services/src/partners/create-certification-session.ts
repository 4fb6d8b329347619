import type { TDatabase } from '@ecf/db';
import { createCertificationEmbedToken } from '../certification/index.ts';
import { findPartnerBrowserOriginRows } from '../persistence/index.ts';
import { AppError } from '../shared/errors.ts';
import { exactBrowserOrigin } from './partner-rules.ts';

/**
 * `POST …/certification-sessions`: a temporary link to the portal's certification page of one
 * account for an iframe of the Partner's web application, bound to an exact HTTPS `browserOrigin`
 * (400 `INVALID_BROWSER_ORIGIN`) among the Partner's registered origins (422
 * `BROWSER_ORIGIN_NOT_ALLOWED`). The portal answers the page with `frame-ancestors <origin>` only,
 * and 410 `CERTIFICATION_EMBED_EXPIRED` once the link expired.
 */
export async function createCertificationSession(options: {
  database: TDatabase;
  partnerId: string;
  tenantId: string;
  browserOrigin: string;
  /** The portal's public address (`PORTAL_BASE_URL`). */
  portalBaseUrl: string;
  secret: string;
  now: Date;
}): Promise<{ url: string; browserOrigin: string; expiresAt: string }> {
  const origin = exactBrowserOrigin(options.browserOrigin);
  const registered = await findPartnerBrowserOriginRows(options.database, options.partnerId);
  if (!registered.some((row) => row.origin === origin))
    throw new AppError(
      'BROWSER_ORIGIN_NOT_ALLOWED',
      `${origin} is not among the Partner's registered browser origins.`,
      {
        details: { browserOrigin: origin },
      },
    );
  const { token, expiresAt } = createCertificationEmbedToken({
    tenantId: options.tenantId,
    origin,
    now: options.now,
    secret: options.secret,
  });
  return {
    url: `${options.portalBaseUrl.replace(/\/+$/, '')}/embed/certification/${token}`,
    browserOrigin: origin,
    expiresAt: expiresAt.toISOString(),
  };
}
