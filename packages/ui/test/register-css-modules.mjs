// Test support: node:test renders components outside Next.js, where `import styles from
// './x.module.css'` has no loader. This hook answers such imports with a module whose every class
// name is its own key (`styles.primary === 'primary'`), so tests can assert on classes.
// Usage: node --import tsx --import @ecf/ui/testing/register-css-modules --test ...
import { register } from 'node:module';

register(
  `data:text/javascript,${encodeURIComponent(`
    export async function load(url, context, nextLoad) {
      if (url.endsWith('.module.css'))
        return {
          format: 'module',
          shortCircuit: true,
          source: 'export default new Proxy({}, { get: (_, key) => (typeof key === "string" ? key : undefined) });',
        };
      if (url.endsWith('.css')) return { format: 'module', shortCircuit: true, source: 'export {};' };
      return nextLoad(url, context);
    }
  `)}`,
);
