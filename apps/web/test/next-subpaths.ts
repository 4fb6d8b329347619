// `next/server`, `next/navigation`…: Next.js ships these subpaths as CommonJS files without an
// `exports` map, so Node's own ESM resolution (the portal's .ts tests run with Node's TypeScript
// support, not tsx, which costs ~1.3 s of CPU more per file) needs their `.js`. Bundlers and tsx
// add it; this resolve hook does only that, for `next/…` alone (`--import ./test/next-subpaths.ts`).
import { registerHooks } from 'node:module';

const NEXT_SUBPATH = /^next\/[a-z][a-z-]*$/;

registerHooks({
  resolve(specifier, context, nextResolve) {
    if (!NEXT_SUBPATH.test(specifier)) return nextResolve(specifier, context);
    try {
      return nextResolve(specifier, context);
    } catch (error) {
      if ((error as { code?: string }).code !== 'ERR_MODULE_NOT_FOUND') throw error;
      return nextResolve(`${specifier}.js`, context);
    }
  },
});
