import 'server-only';
import { portalEnv } from '../env.ts';

/**
 * How often the live pages refresh while something on them is pending (`WEB_LIVE_POLL_MS`, 5 s;
 * README "Live status"): read on the server and handed to each page's live island.
 */
export function livePollMs(): number {
  return portalEnv().WEB_LIVE_POLL_MS;
}
