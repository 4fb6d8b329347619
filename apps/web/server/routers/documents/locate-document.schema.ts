// Client-safe (the header's form checks with it): zod and lib/ only, never @ecf/services.
import { z } from 'zod';
import { ENVIRONMENTS } from '../../../lib/environments.ts';

const ZEnvironment = z.enum(ENVIRONMENTS, { error: 'Ambiente no válido.' });

/** "Ir a e-NCF o TrackId": one reference as typed, and the environment of the page it was typed on. */
export const ZLocateDocumentInput = z.object({
  reference: z.string().trim().min(1, 'Escriba un e-NCF o un TrackId.').max(100),
  environment: ZEnvironment.optional(),
});

export const ZLocateDocumentOutput = z.object({
  /** Where each match opens, the current environment's first, then newest first; empty when none. */
  matches: z.array(
    z.object({
      kind: z.enum(['issued', 'received']),
      environment: ZEnvironment,
      encf: z.string(),
      href: z.string(),
    }),
  ),
});
