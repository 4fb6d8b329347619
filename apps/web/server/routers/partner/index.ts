import { createRouter } from '../../trpc/init.ts';
import { addPartnerOrigin } from './add-partner-origin.ts';
import { createPartnerCertificationLink } from './create-partner-certification-link.ts';
import { createPartnerEndpoint } from './create-partner-endpoint.ts';
import { createPartnerKey } from './create-partner-key.ts';
import { createPartnerUploadSession } from './create-partner-upload-session.ts';
import { getPartnerAccount } from './get-partner-account.ts';
import { getPartnerBilling } from './get-partner-billing.ts';
import { getPartnerDelivery } from './get-partner-delivery.ts';
import { listPartnerAccounts } from './list-partner-accounts.ts';
import { listPartnerDeliveries } from './list-partner-deliveries.ts';
import { listPartnerEndpoints } from './list-partner-endpoints.ts';
import { listPartnerKeys } from './list-partner-keys.ts';
import { listPartnerOrigins } from './list-partner-origins.ts';
import { removePartnerOrigin } from './remove-partner-origin.ts';
import { replayPartnerDelivery } from './replay-partner-delivery.ts';
import { retirePartnerEndpoint } from './retire-partner-endpoint.ts';
import { revokePartnerKey } from './revoke-partner-key.ts';
import { updatePartnerEndpoint } from './update-partner-endpoint.ts';

/**
 * The Partner portal (issue 20): people who work for a Partner see its accounts, keys, browser
 * origins, webhook endpoints and deliveries, and its billing usage. The Partner comes from the
 * session (`partner_users`), never from the input.
 */
export const partnerRouter = createRouter({
  accounts: listPartnerAccounts,
  account: getPartnerAccount,
  createCertificationLink: createPartnerCertificationLink,
  createUploadSession: createPartnerUploadSession,
  keys: listPartnerKeys,
  createKey: createPartnerKey,
  revokeKey: revokePartnerKey,
  origins: listPartnerOrigins,
  addOrigin: addPartnerOrigin,
  removeOrigin: removePartnerOrigin,
  endpoints: listPartnerEndpoints,
  createEndpoint: createPartnerEndpoint,
  updateEndpoint: updatePartnerEndpoint,
  retireEndpoint: retirePartnerEndpoint,
  deliveries: listPartnerDeliveries,
  delivery: getPartnerDelivery,
  replay: replayPartnerDelivery,
  billing: getPartnerBilling,
});
