// Typed lint for every workspace: floating promises are errors, everywhere. Two rules keep the
// layout true (ARCHITECTURE.md): only an app's `src/env.ts` (and the db CLI) reads process.env, and
// in @ecf/services only `src/persistence/` holds SQL or Prisma queries. Which workspace may import
// which is checked by scripts/check-layers.ts.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/** Test code: tests, their support folders, e2e specs and benchmarks (they start processes with the environment). */
const TEST_CODE = [
  '**/*.test.ts',
  '**/*.test.tsx',
  '**/*.spec.ts',
  '**/test/**',
  '**/testing/**',
  '**/testing.ts',
  'e2e/**',
  'bench/**',
];

/** Prisma model delegates (`database.document`...): persistence, like SQL. */
const PRISMA_DELEGATES =
  'tenant|apiKey|tenantCertificate|document|documentEvent|documentFingerprint|artifact|idempotencyRecord|rateLimitCounter|taxauthEpisode|operatorNotification|receiverDelivery|user|membership|invitation|passwordReset|portalSession|portalAuditEntry|sequenceRange|annulment|annulmentRange|partner|partnerKey|partnerBrowserOrigin|partnerUser|partnerUsageCounter|certificateUploadSession|taxpayerRegistryImport|taxpayerRegistryEntry';
const PERSISTENCE_ONLY =
  'is persistence: put it in packages/services/src/persistence/ and call that from the use-case';

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '**/.next/**',
      '**/src/generated/**',
      '.tools/**',
      '**/next-env.d.ts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': [
        'error',
        // node:test's test()/describe() return promises the runner itself awaits.
        {
          allowForKnownSafeCalls: [
            { from: 'package', package: 'node:test', name: ['test', 'it', 'describe', 'suite'] },
          ],
        },
      ],
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'off',
      // Fastify handlers and hooks are async by contract even when they do not await.
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    // Configuration is read once, validated, in each app's src/env.ts (STYLE 8).
    files: ['apps/**/*.{ts,tsx}', 'packages/**/*.{ts,tsx}'],
    ignores: [
      'apps/*/src/env.ts',
      'apps/web/env.ts',
      'apps/web/server-env.ts',
      'packages/db/src/cli/**',
      'packages/db/prisma.config.ts',
      ...TEST_CODE,
    ],
    rules: {
      'no-restricted-properties': [
        'error',
        {
          object: 'process',
          property: 'env',
          message: "Read configuration in the app's src/env.ts (validated with zod) and pass it down.",
        },
      ],
    },
  },
  {
    // The persistence seam: use-cases hold no SQL and no Prisma query of their own.
    files: ['packages/services/src/**/*.ts'],
    ignores: ['packages/services/src/persistence/**', ...TEST_CODE],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector:
            'MemberExpression[property.name=/^\\$(queryRaw|executeRaw|queryRawUnsafe|executeRawUnsafe|transaction)$/]',
          message: `A Prisma raw query or transaction ${PERSISTENCE_ONLY}.`,
        },
        {
          selector: "CallExpression[callee.property.name='query']",
          message: `SQL ${PERSISTENCE_ONLY}.`,
        },
        {
          selector: `MemberExpression[property.name=/^(${PRISMA_DELEGATES})$/][object.name=/^(database|transaction)$/]`,
          message: `A Prisma model query ${PERSISTENCE_ONLY}.`,
        },
        {
          selector: `MemberExpression[property.name=/^(${PRISMA_DELEGATES})$/][object.property.name=/^(database|transaction)$/]`,
          message: `A Prisma model query ${PERSISTENCE_ONLY}.`,
        },
      ],
    },
  },
  {
    // Tests read untyped HTTP answers (inject().json()); contract schemas check their shape instead.
    files: ['**/*.test.ts', '**/*.test.tsx', '**/*.spec.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
  },
);
