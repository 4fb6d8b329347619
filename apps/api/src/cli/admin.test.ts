import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { hashApiKey } from '@ecf/db';
import {
  authenticatePartnerRequest,
  findBrowserOrigins,
  findPartners,
  lookUpTaxpayer,
  verifyPassword,
} from '@ecf/services';
import { openTestDatabase } from '@ecf/db/testing';
import { runAdminHere, runAdminProcess, type TAdminResult } from '../../test/admin-cli.ts';

let context: Awaited<ReturnType<typeof openTestDatabase>>;
let scratch: string;
before(async () => {
  context = await openTestDatabase();
  scratch = await mkdtemp(path.join(tmpdir(), 'ecf-admin-'));
});
after(async () => {
  await context.close();
  await rm(scratch, { recursive: true, force: true });
});

type TResult = TAdminResult;

/** The CLI as an operator runs it, printing text (in this process: test/admin-cli.ts). */
function adminText(...args: string[]): Promise<TResult> {
  return runAdminHere({ ...process.env, DATABASE_URL: context.url }, args);
}

/** The CLI with `--json`, as scripts run it. */
function admin(...args: string[]): Promise<TResult> {
  return adminText(...args, '--json');
}

/** The lines of stderr, without Node's own warnings. */
function errorLines(result: TResult): string[] {
  return result.stderr.split('\n').filter((line) => line !== '' && !line.startsWith('(node:'));
}

test('the CLI as a process: JSON on stdout and exit 0; a bad option one line on stderr and exit 2; the help', async () => {
  const env = { ...process.env, DATABASE_URL: context.url };
  const created = await runAdminProcess(env, [
    'tenant',
    'create',
    '--rnc',
    '101010199',
    '--legal-name',
    'Proceso SRL',
    '--json',
  ]);
  assert.equal(created.code, 0, created.stderr);
  assert.equal((JSON.parse(created.stdout) as { rnc: string }).rnc, '101010199');
  const refused = await runAdminProcess(env, ['tenant', 'create', '--rnc', '12', '--legal-name', 'X']);
  assert.equal(refused.code, 2);
  assert.equal(refused.stdout, '');
  assert.deepEqual(errorLines(refused), ['admin: --rnc: an RNC has 9 digits (or a cédula 11)']);
  const help = await runAdminProcess(env, ['help']);
  assert.equal(help.code, 0);
  assert.match(help.stdout, /^usage: npm run admin -- <command> \[options\]/);
});

test('an operator creates a tenant, a key shown once, lists and revokes it', async () => {
  const created = await admin(
    'tenant',
    'create',
    '--rnc',
    '101010101',
    '--legal-name',
    'Ferretería Central SRL',
    '--phone',
    '809-555-1234',
  );
  assert.equal(created.code, 0, created.stderr);
  const tenant = JSON.parse(created.stdout) as { id: string; rnc: string };
  assert.equal(tenant.rnc, '101010101');

  const duplicate = await admin('tenant', 'create', '--rnc', '101010101', '--legal-name', 'Otra');
  assert.equal(duplicate.code, 1);
  assert.match(duplicate.stderr, /already exists/);

  const keyResult = await admin(
    'key',
    'create',
    '--tenant',
    '101010101',
    '--environment',
    'CerteCF',
    '--scopes',
    'ecf:validate,status:read',
  );
  assert.equal(keyResult.code, 0, keyResult.stderr);
  const { key, apiKey } = JSON.parse(keyResult.stdout) as {
    key: string;
    apiKey: { id: string; prefix: string; scopes: string[] };
  };
  assert.match(key, /^ecf_cert_/);
  assert.deepEqual(apiKey.scopes, ['ecf:validate', 'status:read']);
  const stored = await context.database.apiKey.findUniqueOrThrow({ where: { id: apiKey.id } });
  assert.equal(stored.hash, hashApiKey(key));

  const listed = await admin('key', 'list', '--tenant', tenant.id);
  assert.ok(!listed.stdout.includes(key), 'listing never shows the clear key');
  assert.match(listed.stdout, new RegExp(apiKey.prefix));

  const revoked = await admin('key', 'revoke', '--tenant', tenant.id, '--key', apiKey.prefix);
  assert.equal(revoked.code, 0, revoked.stderr);
  assert.ok((await context.database.apiKey.findUniqueOrThrow({ where: { id: apiKey.id } })).revokedAt);
});

test('bad operator input is refused with a clear message', async () => {
  const badScope = await admin(
    'key',
    'create',
    '--tenant',
    '101010101',
    '--environment',
    'TesteCF',
    '--scopes',
    'ecf:everything',
  );
  assert.equal(badScope.code, 2);
  assert.match(badScope.stderr, /unknown scope\(s\) ecf:everything/);
  const badEnvironment = await admin('key', 'create', '--tenant', '101010101', '--environment', 'prod');
  assert.match(badEnvironment.stderr, /--environment: must be one of/);
  const unknownTenant = await admin('key', 'list', '--tenant', '999999999');
  assert.match(unknownTenant.stderr, /not found/);
  const badRnc = await admin('tenant', 'create', '--rnc', '12AB', '--legal-name', 'X');
  assert.equal(badRnc.code, 2);
});

test('tenant create with a bad RNC: one line naming --rnc, exit 2, nothing created; --json: code, message and the problems', async () => {
  const text = await adminText('tenant', 'create', '--rnc', '12', '--legal-name', 'X');
  assert.equal(text.code, 2);
  assert.equal(text.stdout, '');
  assert.deepEqual(errorLines(text), ['admin: --rnc: an RNC has 9 digits (or a cédula 11)']);
  assert.equal(await context.database.tenant.count({ where: { rnc: '12' } }), 0);

  const json = await admin('tenant', 'create', '--rnc', '12', '--legal-name', 'X');
  assert.equal(json.code, 2);
  assert.equal(json.stdout, '');
  assert.deepEqual(JSON.parse(json.stderr), {
    error: {
      code: 'INVALID_REQUEST',
      message: '--rnc: an RNC has 9 digits (or a cédula 11)',
      problems: [
        { option: '--rnc', code: 'invalid_format', message: 'an RNC has 9 digits (or a cédula 11)' },
      ],
    },
  });

  // Every value createTenant refuses, one line each; which of several --phone values.
  const many = await adminText(
    'tenant',
    'create',
    '--rnc',
    '12',
    '--legal-name',
    'X',
    '--phone',
    '809-555-1234',
    '--phone',
    '1',
    '--email',
    'not-an-address',
    '--production-state',
    'sleeping',
  );
  assert.equal(many.code, 2);
  assert.deepEqual(
    errorLines(many).map((line) => line.split(':')[1]?.trim()),
    ['--rnc', '--phone', '--email', '--production-state'],
  );
  assert.match(many.stderr, /admin: --phone: phone format NNN-NNN-NNNN \(value 2\)/);
});

test('bad options of other commands: one line per problem on stderr, exit 2, nothing done; an unknown command adds the help', async () => {
  const keysBefore = await context.database.apiKey.count();
  const [upload, reencrypt, unknown] = await Promise.all([
    adminText('certificate', 'upload', '--tenant', '101010101', '--delegated', '--password', 'secreto'),
    adminText('certificate', 'reencrypt', '--all'),
    adminText('tenant', 'delete', '--rnc', '101010101'),
  ]);
  assert.equal(upload.code, 2);
  assert.equal(upload.stdout, '');
  assert.deepEqual(errorLines(upload), [
    'admin: --delegated: not an option of "certificate upload" (its options: --tenant, --p12, --password-env)',
    'admin: --password: not an option of "certificate upload" (its options: --tenant, --p12, --password-env)',
    'admin: --p12: is required',
    'admin: --password-env: is required',
  ]);
  assert.ok(!upload.stderr.includes('secreto'), 'a password typed on the command line is not echoed');
  assert.equal(reencrypt.code, 2);
  assert.deepEqual(errorLines(reencrypt), [
    'admin: --all: not an option of "certificate reencrypt" (its options: --tenant)',
  ]);
  assert.equal(unknown.code, 2);
  assert.equal(
    errorLines(unknown)[0],
    'admin: unknown command "tenant delete" (npm run admin -- help lists them)',
  );
  assert.match(unknown.stderr, /usage: npm run admin -- <command> \[options\]/);

  const json = await admin('key', 'create', '--environment', 'prod');
  assert.equal(json.code, 2);
  assert.equal(json.stdout, '');
  assert.deepEqual(JSON.parse(json.stderr), {
    error: {
      code: 'INVALID_REQUEST',
      message: '--tenant: is required; --environment: must be one of TesteCF, CerteCF, eCF (not "prod")',
      problems: [
        { option: '--tenant', code: 'required', message: 'is required' },
        {
          option: '--environment',
          code: 'invalid_value',
          message: 'must be one of TesteCF, CerteCF, eCF (not "prod")',
        },
      ],
    },
  });
  assert.equal(await context.database.apiKey.count(), keysBefore, 'nothing was created');
});

test('an option naming something that does not exist: one line naming it, exit 1; --json code NOT_FOUND', async () => {
  const tenant = await adminText('key', 'list', '--tenant', '999999999');
  assert.equal(tenant.code, 1);
  assert.deepEqual(errorLines(tenant), ['admin: --tenant: tenant 999999999 not found (give its id or RNC)']);

  const key = await admin('key', 'revoke', '--tenant', '101010101', '--key', 'ecf_test_nope');
  assert.equal(key.code, 1);
  assert.deepEqual(JSON.parse(key.stderr), {
    error: {
      code: 'NOT_FOUND',
      message: '--key: API key ecf_test_nope not found for this tenant (give its id or prefix)',
      problems: [
        {
          option: '--key',
          code: 'not_found',
          message: 'API key ecf_test_nope not found for this tenant (give its id or prefix)',
        },
      ],
    },
  });
});

test('demo seeding is idempotent and keeps printing the same valid keys and portal users', async () => {
  const keysFile = path.join(scratch, 'demo-keys.json');
  const usersFile = path.join(scratch, 'demo-portal-users.json');
  type TDemo = {
    keys: Record<string, string>;
    portalUsers: Record<'owner' | 'support', { email: string; password: string }>;
    partner: { id: string; key: string; keyId: string; origin: string; registryRncs: string[] };
  };
  const first = JSON.parse(
    (await admin('demo', '--keys-file', keysFile, '--users-file', usersFile)).stdout,
  ) as TDemo;
  const second = JSON.parse(
    (await admin('demo', '--keys-file', keysFile, '--users-file', usersFile)).stdout,
  ) as TDemo;
  assert.match(first.keys.TesteCF ?? '', /^ecf_test_/);
  assert.match(first.keys.CerteCF ?? '', /^ecf_cert_/);
  assert.deepEqual(second.keys, first.keys);
  assert.deepEqual(JSON.parse(await readFile(keysFile, 'utf8')), {
    ...first.keys,
    partner: first.partner.key,
    partnerKeyId: first.partner.keyId,
  });
  // The demo Partner: one, the same key each time, its origin; the registry lets it link its taxpayers.
  assert.deepEqual(second.partner, first.partner);
  const principal = await authenticatePartnerRequest({
    database: context.database,
    key: first.partner.key,
    ip: '127.0.0.1',
    permission: 'fiscal-accounts:manage',
    accountId: null,
  });
  assert.deepEqual([principal.partner.id, principal.key.profile], [first.partner.id, 'full']);
  assert.equal(
    (await findPartners({ database: context.database })).filter((row) => row.id === first.partner.id).length,
    1,
  );
  assert.deepEqual(
    (await findBrowserOrigins({ database: context.database, partnerId: first.partner.id })).map(
      (row) => row.origin,
    ),
    ['https://erp.demo.example'],
  );
  const looked = await lookUpTaxpayer({
    database: context.database,
    rnc: first.partner.registryRncs[0] ?? '',
  });
  assert.ok(looked.loaded && looked.taxpayer?.status === 'ACTIVO', JSON.stringify(looked));
  assert.equal(await context.database.tenant.count({ where: { rnc: '131880738' } }), 1);
  // The portal users: the same passwords each time, kept in the users file, and they sign in.
  assert.deepEqual(second.portalUsers, first.portalUsers);
  assert.deepEqual(JSON.parse(await readFile(usersFile, 'utf8')), first.portalUsers);
  for (const kind of ['owner', 'support'] as const) {
    const { email, password } = first.portalUsers[kind];
    const user = await context.database.user.findUniqueOrThrow({ where: { email } });
    assert.equal(await verifyPassword(user.passwordHash, password), true, kind);
    assert.equal(user.isSupport, kind === 'support');
  }
  const owner = await context.database.user.findUniqueOrThrow({
    where: { email: first.portalUsers.owner.email },
    include: { memberships: { include: { tenant: true } } },
  });
  assert.deepEqual(
    owner.memberships.map((membership) => [membership.tenant.rnc, membership.role]),
    [['131880738', 'owner']],
  );
  // Buyer e-mail is on in TesteCF (once, however many times demo runs).
  assert.deepEqual(
    (await context.database.tenant.findUniqueOrThrow({ where: { rnc: '131880738' } })).buyerEmailEnvironments,
    ['TesteCF'],
  );
});

test('user create and member add: an operator makes a portal user and gives it a tenant; the password comes from a variable', async () => {
  const rnc = '101000777';
  // The password variable, as the operator's shell would export it (the CLI inherits this process's environment).
  process.env.ECF_TEST_PORTAL_PASSWORD = 'una clave de portal larga';
  await admin('tenant', 'create', '--rnc', rnc, '--legal-name', 'Portal Operado SRL');
  const created = await admin(
    'user',
    'create',
    '--email',
    'Duena@Example.com',
    '--name',
    'Dueña Operada',
    '--password-env',
    'ECF_TEST_PORTAL_PASSWORD',
  );
  const user = JSON.parse(created.stdout) as { created: boolean; email: string; isSupport: boolean };
  assert.deepEqual([user.created, user.email, user.isSupport], [true, 'duena@example.com', false]);
  assert.ok(!created.stdout.includes('una clave de portal larga'), 'the password is never printed');
  const stored = await context.database.user.findUniqueOrThrow({ where: { email: 'duena@example.com' } });
  assert.equal(await verifyPassword(stored.passwordHash, 'una clave de portal larga'), true);

  const added = JSON.parse(
    (await admin('member', 'add', '--tenant', rnc, '--email', 'duena@example.com', '--role', 'owner')).stdout,
  ) as { created: boolean };
  assert.equal(added.created, true);
  const again = JSON.parse(
    (await admin('member', 'add', '--tenant', rnc, '--email', 'duena@example.com', '--role', 'accountant'))
      .stdout,
  ) as { created: boolean };
  assert.equal(again.created, false, 'an existing membership keeps its role');
  const memberships = await context.database.membership.findMany({ where: { userId: stored.id } });
  assert.deepEqual(
    memberships.map((membership) => membership.role),
    ['owner'],
  );

  const unknown = await admin(
    'member',
    'add',
    '--tenant',
    rnc,
    '--email',
    'nadie@example.com',
    '--role',
    'owner',
  );
  assert.equal(unknown.code, 1);
  assert.match(unknown.stderr, /NOT_FOUND/);
  const badRole = await admin(
    'member',
    'add',
    '--tenant',
    rnc,
    '--email',
    'duena@example.com',
    '--role',
    'root',
  );
  assert.equal(badRole.code, 2);
  assert.match(badRole.stderr, /--role/);
});
