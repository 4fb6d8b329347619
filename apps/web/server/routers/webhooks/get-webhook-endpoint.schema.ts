import { z } from 'zod';
import { ZUuid } from '../../../lib/schemas.ts';
import { ZEnvironment, ZWebhookEndpoint } from './webhook.schema.ts';

export const ZGetWebhookEndpointInput = z.object({ environment: ZEnvironment, endpointId: ZUuid });
export const ZGetWebhookEndpointOutput = z.object({ endpoint: ZWebhookEndpoint, canManage: z.boolean() });
