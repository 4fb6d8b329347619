import { z } from 'zod';
import { ZEnvironment } from './support-desk.schema.ts';

export const ZListEpisodesInput = z.void();
export const ZListEpisodesOutput = z.object({
  episodes: z.array(
    z.object({
      id: z.uuid(),
      environment: ZEnvironment,
      service: z.string(),
      code: z.string(),
      degradedSince: z.string(),
      restoredAt: z.string().nullable(),
      open: z.boolean(),
      durationSeconds: z.number().int().nonnegative(),
    }),
  ),
});
