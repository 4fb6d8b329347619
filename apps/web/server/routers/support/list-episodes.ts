import { findOutageEpisodes } from '@ecf/services';
import { supportProcedure } from '../../trpc/procedures.ts';
import { ZListEpisodesInput, ZListEpisodesOutput } from './list-episodes.schema.ts';

/** The tax authority's outage episodes (per environment: no tenant's data, so no tenant's audit entry). */
export const listEpisodes = supportProcedure('support.read')
  .input(ZListEpisodesInput)
  .output(ZListEpisodesOutput)
  .query(async ({ ctx }) => ({
    episodes: await findOutageEpisodes({ database: ctx.database, now: ctx.now }),
  }));
