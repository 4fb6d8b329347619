import { z } from 'zod';
import { ZUuid } from '../../../lib/schemas.ts';
import { ZApiKey } from './api-key.schema.ts';

export const ZRevokeApiKeyInput = z.object({ apiKeyId: ZUuid });
export const ZRevokeApiKeyOutput = ZApiKey;
