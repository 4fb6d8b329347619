import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { findViolations } from './check-layers.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

test('the repository follows its layering rule', () => {
  assert.deepEqual(findViolations(ROOT), []);
});

/** An import statement of a fixture file (built here, so this file's own imports stay its real ones). */
function importOf(names: string, specifier: string): string {
  return `import { ${names} } from '${specifier}';`;
}

/** A throwaway repository: `workspaces` maps a folder to its package.json and files. */
function fixture(
  workspaces: Record<string, { pkg: Record<string, unknown>; files: Record<string, string> }>,
): { root: string; remove: () => void } {
  const root = mkdtempSync(path.join(tmpdir(), 'layers-'));
  writeFileSync(path.join(root, 'package.json'), JSON.stringify({ workspaces: ['apps/*', 'packages/*'] }));
  for (const [folder, { pkg, files }] of Object.entries(workspaces)) {
    mkdirSync(path.join(root, folder), { recursive: true });
    writeFileSync(path.join(root, folder, 'package.json'), JSON.stringify(pkg));
    for (const [file, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(root, folder, file)), { recursive: true });
      writeFileSync(path.join(root, folder, file), text);
    }
  }
  return { root, remove: () => rmSync(root, { recursive: true, force: true }) };
}

const LAYERS = {
  '@x/core': [],
  '@x/services': ['@x/core'],
  '@x/sim': ['@x/core'],
  '@x/api': ['@x/services', '@x/core'],
};

test('each way of breaking the rule is reported; what the rule allows is not', () => {
  const repository = fixture({
    'packages/core': {
      pkg: { name: '@x/core', exports: { '.': './src/index.ts', './testing': './test/support.ts' } },
      files: { 'src/index.ts': 'export const core = 1;\n', 'test/support.ts': 'export const fake = 1;\n' },
    },
    'packages/services': {
      pkg: {
        name: '@x/services',
        exports: { '.': './src/index.ts' },
        dependencies: { '@x/core': '*', '@x/api': '*' },
        devDependencies: { '@x/sim': '*' },
      },
      files: {
        'src/index.ts': [
          importOf('core', '@x/core'),
          importOf('fake', '@x/core/testing'),
          importOf('deep', '@x/core/src/index.ts'),
          importOf('app', '@x/api'),
          importOf('sim', '@x/sim'),
          importOf('other', '../../core/src/index.ts'),
          importOf('helper', '../test/helper.ts'),
          'export { core, fake, deep, app, sim, other, helper };',
        ].join('\n'),
        // Tests may start a test peer and use testing exports.
        'src/index.test.ts': [
          importOf('sim', '@x/sim'),
          importOf('fake', '@x/core/testing'),
          'export { sim, fake };',
        ].join('\n'),
        'test/helper.ts': 'export const helper = 1;\n',
      },
    },
    'apps/sim': {
      pkg: { name: '@x/sim', exports: { '.': './src/index.ts' }, dependencies: { '@x/core': '*' } },
      files: { 'src/index.ts': `${importOf('core', '@x/core')}\nexport const sim = core;\n` },
    },
    'apps/api': {
      pkg: { name: '@x/api', exports: { '.': './src/index.ts' }, dependencies: { '@x/services': '*' } },
      files: { 'src/index.ts': `${importOf('core', '@x/services')}\nexport const app = core;\n` },
    },
  });
  try {
    const messages = findViolations(repository.root, { layers: LAYERS, testPeers: ['@x/sim'] }).map(
      (violation) => `${violation.file}: ${violation.message}`,
    );
    const expected = [
      'packages/services/package.json: @x/services may not depend on @x/api',
      'packages/services/src/index.ts: production code imports test support @x/core/testing',
      'packages/services/src/index.ts: imports @x/core/src/index.ts, which @x/core does not export (package.json "exports")',
      'packages/services/src/index.ts: @x/services may not import @x/api',
      'packages/services/src/index.ts: @x/services may not import @x/sim',
      'packages/services/src/index.ts: imports @x/sim without declaring it in dependencies',
      'packages/services/src/index.ts: relative import ../../core/src/index.ts leaves @x/services: import the workspace by name',
      'packages/services/src/index.ts: production code imports test code ../test/helper.ts',
    ];
    assert.deepEqual(messages.sort(), expected.sort());
  } finally {
    repository.remove();
  }
});

test('a workspace missing from the rule is reported', () => {
  const repository = fixture({
    'packages/new': { pkg: { name: '@x/new' }, files: { 'src/index.ts': 'export {};\n' } },
  });
  try {
    assert.deepEqual(
      findViolations(repository.root, { layers: LAYERS, testPeers: [] }).map(
        (violation) => violation.message,
      ),
      ['@x/new has no entry in the layering rule (tools/src/layers.ts)'],
    );
  } finally {
    repository.remove();
  }
});

test('a workspace everyone may import needs no line of the others; it may import nothing its own line does not allow', () => {
  const repository = fixture({
    'packages/contract': {
      pkg: { name: '@x/contract', exports: { '.': './src/index.ts' }, dependencies: { '@x/core': '*' } },
      files: { 'src/index.ts': `${importOf('core', '@x/core')}\nexport const shape = core;\n` },
    },
    'packages/core': {
      pkg: { name: '@x/core', exports: { '.': './src/index.ts' }, dependencies: { '@x/contract': '*' } },
      files: { 'src/index.ts': `${importOf('shape', '@x/contract')}\nexport const core = shape;\n` },
    },
  });
  try {
    const layers = { ...LAYERS, '@x/contract': [] };
    const messages = findViolations(repository.root, {
      layers,
      testPeers: [],
      everyone: ['@x/contract'],
    }).map((violation) => `${violation.file}: ${violation.message}`);
    assert.deepEqual(messages.sort(), [
      'packages/contract/package.json: @x/contract may not depend on @x/core',
      'packages/contract/src/index.ts: @x/contract may not import @x/core',
    ]);
    // Without the grant, the core's import of the contract breaks its line.
    assert.ok(
      findViolations(repository.root, { layers, testPeers: [] }).some(
        (violation) => violation.message === '@x/core may not import @x/contract',
      ),
    );
  } finally {
    repository.remove();
  }
});
