import { z } from 'zod';
import { ZApiKey, ZEnvironment, ZScope } from './api-key.schema.ts';

export const ZListApiKeysInput = z.object({ environment: ZEnvironment });
export const ZListApiKeysOutput = z.object({
  keys: z.array(ZApiKey),
  /** The scopes the caller may put on a new key (empty: they cannot create keys). */
  grantableScopes: z.array(ZScope),
  /** The REST API's address, for the page's usage hint. */
  apiUrl: z.string(),
});
