// Every command of the admin CLI against its real option table, in process (admin.test.ts runs the
// CLI itself for the output, the exit status and `--json`).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { COMMANDS, scopesOf } from './admin-commands.ts';
import { CommandLineError, formatProblem, parseCommandLine } from './admin-options.ts';

function problemLines(...argv: string[]): string[] {
  try {
    parseCommandLine(argv, COMMANDS);
  } catch (error) {
    assert.ok(error instanceof CommandLineError);
    return error.problems.map(formatProblem);
  }
  assert.fail(`accepted: ${argv.join(' ')}`);
}

test('every command takes its documented options', () => {
  const accepted = [
    ['tenant', 'create', '--rnc', '101010101', '--legal-name', 'X', '--trade-name', 'Y', '--address', 'Z'],
    [
      'tenant',
      'create',
      '--rnc',
      '101010101',
      '--legal-name',
      'X',
      '--phone',
      'a',
      '--phone',
      'b',
      '--email',
      'e',
    ],
    ['tenant', 'create', '--rnc', '101010101', '--legal-name', 'X', '--production-state', 'active'],
    ['tenant', 'list'],
    ['key', 'create', '--tenant', 't', '--environment', 'CerteCF', '--scopes', 'ecf:read', '--name', 'n'],
    ['key', 'list', '--tenant', 't'],
    ['key', 'revoke', '--tenant', 't', '--key', 'k'],
    ['certificate', 'upload', '--tenant', 't', '--p12', 'f.p12', '--password-env', 'P'],
    ['certificate', 'list', '--tenant', 't'],
    ['certificate', 'reencrypt'],
    ['certificate', 'reencrypt', '--tenant', 't'],
    ['demo', '--keys-file', 'k.json'],
    ['help'],
  ];
  for (const argv of accepted) assert.doesNotThrow(() => parseCommandLine([...argv, '--json'], COMMANDS));
  assert.deepEqual(scopesOf(undefined), ['ecf:validate', 'ecf:create', 'ecf:read', 'status:read']);
});

test('tenant create: missing, valueless and unknown options, one line each', () => {
  assert.deepEqual(problemLines('tenant', 'create'), ['--rnc: is required', '--legal-name: is required']);
  assert.deepEqual(problemLines('tenant', 'create', '--rnc', '--legal-name=Ferretería', '--trade'), [
    '--rnc: needs a value',
    '--trade: not an option of "tenant create" (its options: --rnc, --legal-name, --trade-name, --address, --phone, --email, --production-state)',
  ]);
});

test('tenant list takes no option', () => {
  assert.deepEqual(problemLines('tenant', 'list', '--rnc', '101010101'), [
    '--rnc: not an option of "tenant list" (it takes none)',
  ]);
});

test('key create: the environment is one of three, every scope is known, the tenant is required', () => {
  assert.deepEqual(
    problemLines('key', 'create', '--environment', 'prod', '--scopes', 'ecf:read,ecf:everything'),
    [
      '--tenant: is required',
      '--environment: must be one of TesteCF, CerteCF, eCF (not "prod")',
      '--scopes: unknown scope(s) ecf:everything; known: ecf:validate, ecf:create, ecf:read, status:read, tenant:admin',
    ],
  );
  assert.deepEqual(problemLines('key', 'create', '--tenant', 't', '--environment'), [
    '--environment: needs a value',
  ]);
});

test('key list and key revoke: the tenant and the key need values; a stray argument is named', () => {
  assert.deepEqual(problemLines('key', 'list', '--tenant'), ['--tenant: needs a value']);
  assert.deepEqual(problemLines('key', 'revoke', '--tenant', '101010101', 'ecf_test_abc'), [
    'unexpected argument "ecf_test_abc" (option values follow their option: --name value)',
    '--key: is required',
  ]);
});

test('certificate upload, list and reencrypt: options are not repeated, unknown ones are named', () => {
  assert.deepEqual(problemLines('certificate', 'upload', '--tenant', 't', '--delegated', '--password', 's'), [
    '--delegated: not an option of "certificate upload" (its options: --tenant, --p12, --password-env)',
    '--password: not an option of "certificate upload" (its options: --tenant, --p12, --password-env)',
    '--p12: is required',
    '--password-env: is required',
  ]);
  assert.deepEqual(problemLines('certificate', 'list', '--tenant', 'a', '--tenant', 'b'), [
    '--tenant: is given more than once',
  ]);
  assert.deepEqual(problemLines('certificate', 'reencrypt', '--all'), [
    '--all: not an option of "certificate reencrypt" (its options: --tenant)',
  ]);
});

test('demo: the keys file needs a value; --json is a flag everywhere', () => {
  assert.deepEqual(problemLines('demo', '--keys-file'), ['--keys-file: needs a value']);
  assert.deepEqual(problemLines('tenant', 'list', '--json=yes'), ['--json: is a flag and takes no value']);
});
