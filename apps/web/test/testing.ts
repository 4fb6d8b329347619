/**
 * @ecf/web/testing: what the contract fuzzer (the `fuzz` workspace) drives from outside the
 * portal: the tRPC endpoint as the route handler calls it, the router it enumerates, and the test
 * harness that signs people in. Test support only (production code never imports it).
 */
export { handleTrpcRequest, TRPC_ENDPOINT } from '../server/trpc/http.ts';
export { appRouter } from '../server/routers/root.ts';
export { exampleText } from '../lib/try-it-examples.ts';
export {
  contextOf,
  openPortalHarness,
  seedWorld,
  type TPortalHarness,
  type TRole,
  type TWorld,
} from './portal-harness.ts';
