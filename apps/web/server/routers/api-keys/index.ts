import { createRouter } from '../../trpc/init.ts';
import { createApiKey } from './create-api-key.ts';
import { listApiKeys } from './list-api-keys.ts';
import { revokeApiKey } from './revoke-api-key.ts';

/** The active tenant's API keys, per environment: owners and developers list, create and revoke. */
export const apiKeysRouter = createRouter({
  list: listApiKeys,
  create: createApiKey,
  revoke: revokeApiKey,
});
