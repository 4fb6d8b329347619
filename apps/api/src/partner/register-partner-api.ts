import type { FastifyInstance } from 'fastify';
import type { TCertificateKeyring } from '@ecf/services';
import { registerPartnerCertificateRoutes } from './partner-certificate-routes.ts';
import {
  registerPartnerCertificationRoutes,
  type TPartnerCertificationOptions,
} from './partner-certification-routes.ts';
import { registerPartnerRoutes, type TPartnerRoutesOptions } from './partner-routes.ts';
import { registerPartnerWebhookRoutes } from './partner-webhook-routes.ts';

/** Every route of the Partner API (`/partner/v1`): accounts, documents, certificates, webhooks, billing. */
export function registerPartnerApi(
  app: FastifyInstance,
  options: TPartnerRoutesOptions &
    Omit<TPartnerCertificationOptions, keyof TPartnerRoutesOptions> & {
      allowPrivateTargets: boolean;
      keyring?: TCertificateKeyring;
    },
): void {
  registerPartnerRoutes(app, options);
  registerPartnerCertificationRoutes(app, options);
  registerPartnerWebhookRoutes(app, { ...options, keyring: options.keyring });
  registerPartnerCertificateRoutes(app, { ...options, keyring: options.keyring });
}
