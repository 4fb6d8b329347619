/**
 * The layering rule of the repository (ARCHITECTURE.md, "Which package may import which"): for
 * each workspace, the internal workspaces its production code may import. Apps are never imported
 * by production code; tests may also start the apps listed in `TEST_PEERS` as real local servers
 * and use other packages' `testing` exports.
 */
export const LAYERS: Readonly<Record<string, readonly string[]>> = {
  // The contract (shapes and lists of the API, the Partner API and the portal) imports nothing of
  // ours; every workspace may import it (EVERYONE_MAY_IMPORT).
  '@ecf/contract': [],
  // The SDK ERPs and Partners install: self-contained (its types are generated from the OpenAPI
  // document), so its npm package depends on nothing of ours.
  '@ecf/sdk': [],
  '@ecf/fiscal-core': [],
  '@ecf/db': [],
  '@ecf/ui': [],
  '@ecf/config': ['@ecf/fiscal-core'],
  '@ecf/printing': ['@ecf/fiscal-core'],
  '@ecf/taxauth-client': ['@ecf/fiscal-core'],
  '@ecf/certification-sets': ['@ecf/fiscal-core'],
  '@ecf/services': [
    '@ecf/db',
    '@ecf/fiscal-core',
    '@ecf/taxauth-client',
    '@ecf/printing',
    '@ecf/certification-sets',
  ],
  '@ecf/api': ['@ecf/services', '@ecf/db', '@ecf/fiscal-core', '@ecf/config', '@ecf/taxauth-client'],
  '@ecf/worker': ['@ecf/services', '@ecf/db', '@ecf/fiscal-core', '@ecf/taxauth-client', '@ecf/config'],
  '@ecf/web': ['@ecf/ui', '@ecf/services', '@ecf/db', '@ecf/config', '@ecf/taxauth-client'],
  '@ecf/taxauth-sim': ['@ecf/fiscal-core', '@ecf/db', '@ecf/config', '@ecf/certification-sets'],
  '@ecf/mail-catcher': [],
  '@ecf/tools': [],
  // Benchmarks and end-to-end specs are test code: they drive everything, apps included.
  '@ecf/bench': ['*'],
  '@ecf/e2e': ['*'],
  // The examples are what an integrator writes: the SDK and nothing else of ours.
  '@ecf/example-erp-integration': ['@ecf/sdk'],
  '@ecf/example-partner-onboarding': ['@ecf/sdk'],
  // The contract fuzzer is test code too: it starts the API and drives the portal's tRPC handler.
  '@ecf/fuzz': ['*'],
};

/** Workspaces any other may import, without naming them in its line of LAYERS. */
export const EVERYONE_MAY_IMPORT: readonly string[] = ['@ecf/contract'];

/**
 * What any test may use beyond its workspace's line: the apps it may start as real local servers
 * (the tax authority simulator, the mail catcher) and the SDK, to drive the API as integrators do.
 */
export const TEST_PEERS: readonly string[] = ['@ecf/taxauth-sim', '@ecf/mail-catcher', '@ecf/sdk'];

/**
 * Test code: tests, their support and a workspace's development scripts (`scripts/`, such as the
 * golden-file generator), which production code never imports.
 */
export function isTestFile(pathInWorkspace: string): boolean {
  return (
    /\.(test|spec)\.tsx?$/.test(pathInWorkspace) ||
    /(^|\/)(test|testing|scripts)(\/|$)/.test(pathInWorkspace) ||
    /(^|\/)testing\.tsx?$/.test(pathInWorkspace)
  );
}
