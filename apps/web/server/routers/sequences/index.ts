import { createRouter } from '../../trpc/init.ts';
import { listSequences } from './list-sequences.ts';
import { registerSequence } from './register-sequence.ts';

/** The active tenant's registered eNCF ranges per environment: owners and developers register them; support reads. */
export const sequencesRouter = createRouter({
  list: listSequences,
  register: registerSequence,
});
