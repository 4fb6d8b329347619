import { z } from 'zod';
import { ZEnvironment, ZSupportTenant } from './support-desk.schema.ts';

export const ZOperatorNotification = z.object({
  id: z.uuid(),
  kind: z.string(),
  message: z.string().nullable(),
  data: z.record(z.string(), z.unknown()),
  tenant: ZSupportTenant.nullable(),
  document: z.object({ id: z.uuid(), encf: z.string(), environment: ZEnvironment }).nullable(),
  createdAt: z.string(),
  sentAt: z.string().nullable(),
  acknowledgedAt: z.string().nullable(),
  acknowledgedBy: z.object({ id: z.uuid(), name: z.string(), email: z.string() }).nullable(),
});
