import { test } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import {
  CommandLineError,
  formatProblem,
  parseCommandLine,
  problemsOfIssues,
  type TCommandSpec,
} from './admin-options.ts';

const COMMANDS: Record<string, TCommandSpec> = {
  'tenant create': {
    options: {
      rnc: { type: 'string', required: true },
      'legal-name': { type: 'string', required: true },
      phone: { type: 'string', multiple: true },
    },
  },
  'key create': {
    options: {
      tenant: { type: 'string', required: true },
      environment: { type: 'string', required: true, choices: ['TesteCF', 'CerteCF', 'eCF'] },
      scopes: { type: 'string' },
      delegated: { type: 'boolean' },
    },
    check: (values) =>
      values.scopes === 'ecf:everything'
        ? [{ option: '--scopes', code: 'invalid_value', message: 'unknown scope(s) ecf:everything' }]
        : [],
  },
  demo: { options: { 'keys-file': { type: 'string' } } },
  help: { options: {} },
};

/** The lines the operator reads for a command line. */
function problemLines(argv: string[]): string[] {
  try {
    parseCommandLine(argv, COMMANDS);
  } catch (error) {
    assert.ok(error instanceof CommandLineError);
    return error.problems.map(formatProblem);
  }
  assert.fail('the command line was accepted');
}

test('a good command line: its command and values, inline values, repeated values in order, flags; -- ends the options', () => {
  assert.deepEqual(
    parseCommandLine(
      ['tenant', 'create', '--rnc', '101010101', '--legal-name=Ferretería', '--phone', 'a', '--phone', 'b'],
      COMMANDS,
    ),
    {
      command: 'tenant create',
      values: { rnc: '101010101', 'legal-name': 'Ferretería', phone: ['a', 'b'] },
    },
  );
  assert.deepEqual(
    parseCommandLine(
      ['key', 'create', '--delegated', '--json', '--environment', 'eCF', '--tenant=-1'],
      COMMANDS,
    ).values,
    { delegated: true, json: true, environment: 'eCF', tenant: '-1' },
  );
  assert.deepEqual(problemLines(['demo', '--', '--keys-file']), [
    'unexpected argument "--keys-file" (option values follow their option: --name value)',
  ]);
});

test('no command is help; a command of one word', () => {
  assert.equal(parseCommandLine([], COMMANDS).command, 'help');
  assert.equal(parseCommandLine(['--json'], COMMANDS).command, 'help');
  assert.deepEqual(parseCommandLine(['demo', '--keys-file', 'k.json'], COMMANDS), {
    command: 'demo',
    values: { 'keys-file': 'k.json' },
  });
});

test('every problem of a command line is reported at once, one line each, naming its option', () => {
  assert.deepEqual(
    problemLines([
      'key',
      'create',
      '--environment',
      'prod',
      '--scopes',
      'ecf:everything',
      '--bogus',
      'value',
      '--delegated=yes',
      'stray',
    ]),
    [
      '--bogus: not an option of "key create" (its options: --tenant, --environment, --scopes, --delegated)',
      '--delegated: is a flag and takes no value',
      'unexpected argument "stray" (option values follow their option: --name value)',
      '--tenant: is required',
      '--environment: must be one of TesteCF, CerteCF, eCF (not "prod")',
      '--scopes: unknown scope(s) ecf:everything',
    ],
  );
});

test('a value missing (at the end, or another option in its place), an option given twice, an option of no command', () => {
  assert.deepEqual(problemLines(['tenant', 'create', '--legal-name', '--rnc']), [
    '--legal-name: needs a value',
    '--rnc: needs a value',
  ]);
  assert.deepEqual(problemLines(['demo', '--keys-file', 'a', '--keys-file', 'b']), [
    '--keys-file: is given more than once',
  ]);
  assert.deepEqual(problemLines(['help', '--rnc', '1']), ['--rnc: not an option of "help" (it takes none)']);
});

test('an unknown command is one problem about the argument, not an option', () => {
  try {
    parseCommandLine(['tenant', 'delete', '--rnc', '1'], COMMANDS);
    assert.fail('accepted');
  } catch (error) {
    assert.ok(error instanceof CommandLineError);
    assert.equal(error.code, 'INVALID_REQUEST');
    assert.deepEqual(error.problems, [
      {
        argument: 'tenant delete',
        code: 'unknown_command',
        message: 'unknown command "tenant delete" (npm run admin -- help lists them)',
      },
    ]);
  }
});

test('a schema refusal names the options its fields came from, and which value of a repeated one', () => {
  const schema = z.strictObject({
    rnc: z.string().regex(/^\d{9}$/, 'an RNC has 9 digits (or a cédula 11)'),
    phones: z.array(z.string().regex(/^\d{3}-\d{3}-\d{4}$/, 'phone format NNN-NNN-NNNN')),
  });
  const parsed = schema.safeParse({ rnc: '12', phones: ['809-555-1234', '1'] });
  assert.ok(!parsed.success);
  assert.deepEqual(problemsOfIssues(parsed.error.issues, { rnc: '--rnc', phones: '--phone' }), [
    { option: '--rnc', code: 'invalid_format', message: 'an RNC has 9 digits (or a cédula 11)' },
    { option: '--phone', code: 'invalid_format', message: 'phone format NNN-NNN-NNNN (value 2)' },
  ]);
  const error = new CommandLineError(problemsOfIssues(parsed.error.issues, { rnc: '--rnc' }));
  assert.equal(
    error.message,
    '--rnc: an RNC has 9 digits (or a cédula 11); --phones.1: phone format NNN-NNN-NNNN (value 2)',
  );
});
