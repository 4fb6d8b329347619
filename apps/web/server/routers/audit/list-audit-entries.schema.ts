import { z } from 'zod';

export const ZListAuditEntriesInput = z.object({
  cursor: z
    .string()
    .regex(/^[1-9][0-9]{0,18}$/, 'Cursor no válido.')
    .nullish(),
  limit: z.number().int().min(1).max(100).default(50),
});

export const ZAuditEntry = z.object({
  id: z.string(),
  action: z.string(),
  targetType: z.string().nullable(),
  targetId: z.string().nullable(),
  data: z.record(z.string(), z.unknown()),
  ip: z.string().nullable(),
  createdAt: z.iso.datetime(),
  actor: z.object({ email: z.string(), name: z.string(), isSupport: z.boolean() }).nullable(),
});

export const ZListAuditEntriesOutput = z.object({
  items: z.array(ZAuditEntry),
  nextCursor: z.string().nullable(),
});
