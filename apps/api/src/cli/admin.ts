// Operator command line: tenants, API keys, signing certificates and portal users. `npm run admin -- help` lists the commands.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ZodError } from 'zod';
import { ALL_SCOPES, createDatabaseClient, type Environment, type MemberRole, type TDatabase } from '@ecf/db';
import { createTestCertificate } from '@ecf/fiscal-core';
import {
  AppError,
  authenticateApiRequest,
  createApiKey,
  createCertificateKeyring,
  createTenant,
  enableBuyerEmail,
  findApiKeys,
  findTenantCertificates,
  findTenants,
  getTenant,
  reencryptTenantCertificates,
  revokeApiKey,
  storeTenantCertificate,
  type TCertificateKeyring,
} from '@ecf/services';
import { readEnv, readNamedVariable, type TEnv } from '../env.ts';
import { addPortalMember, createPortalUser, seedDemoPortalUsers } from './admin-portal.ts';
import { COMMANDS, scopesOf, TENANT_FIELD_OPTIONS } from './admin-commands.ts';
import { PARTNER_COMMANDS, PARTNER_HELP, runPartnerCommand, seedDemoPartner } from './admin-partner.ts';
import {
  CommandLineError,
  formatProblem,
  parseCommandLine,
  problemsOfIssues,
  type TOptionValues,
  type TParsedCommandLine,
  type TProblem,
} from './admin-options.ts';

const HELP = `usage: npm run admin -- <command> [options]

  tenant create --rnc <RNC> --legal-name <name> [--trade-name <name>] [--address <text>]
                [--phone NNN-NNN-NNNN]... [--email <fiscal e-mail>] [--production-state <state>]
  tenant list
  key create --tenant <id|RNC> --environment <TesteCF|CerteCF|eCF> [--scopes a,b,...] [--name <label>]
             (default scopes: ecf:validate,ecf:create,ecf:read,status:read; all: ${ALL_SCOPES.join(',')})
  key list --tenant <id|RNC>
  key revoke --tenant <id|RNC> --key <id|prefix>
  certificate upload --tenant <id|RNC> --p12 <file> --password-env <VARIABLE>
             install the tenant's signing certificate (replaces the active one) after the portal's
             checks (password, key pair, holder id, key usage, validity); the password is read from
             the named environment variable, never from the command line. A holder other than the
             tenant's RNC is accepted (a certificate delegated for it: the tax authority checks it)
  certificate list --tenant <id|RNC>
  certificate reencrypt [--tenant <id|RNC>]   after a master-key rotation, move certificates to the current key
  user create --email <address> --name <name> --password-env <VARIABLE> [--support]
             a portal user (a tenant's first owner, or --support: the operator's support staff); the
             password is read from the named variable; an existing address is left as it is
  member add --tenant <id|RNC> --email <address> --role <owner|developer|accountant>
             make a portal user a member of the tenant (owners invite everyone else from the portal)
${PARTNER_HELP}
  demo [--keys-file <path>] [--users-file <path>]
                              create (once) the demo tenant, its TesteCF and CerteCF keys, a
                              generated test certificate (when CERTIFICATE_MASTER_KEY is set), a
                              portal owner and a support user (passwords kept in the users file);
                              buyer e-mail is enabled in TesteCF; the demo Partner with a full
                              key (kept in the keys file), its origin, and a registry of three
                              taxpayers when none is loaded

  --json   print JSON instead of text; an error is then {"error":{"code","message","problems"}} on stderr,
           each problem {"option","code","message"} (or "argument" for an argument that is no option)

Every problem with the options is reported, one line each (--rnc: an RNC has 9 digits (or a cédula 11)).
Exit status: 0 done; 1 failed (nothing found, refused, database); 2 bad command line, nothing done.
The clear API key is printed once, at creation; only its SHA-256 is stored.
Certificates are stored encrypted under CERTIFICATE_MASTER_KEY (older keys: CERTIFICATE_MASTER_KEYS).`;

const DEMO_TENANT = {
  rnc: '131880738',
  legalName: 'Demo Comercial del Caribe SRL',
  tradeName: 'Demo Caribe',
  address: 'Av. Abraham Lincoln 1003, Santo Domingo',
  phones: ['809-555-0101'],
  fiscalEmail: 'facturacion@demo-caribe.example',
};

type TTenantInput = Parameters<typeof createTenant>[0]['input'];

/** createTenant's input as the operator gave it; createTenant's schema judges it. */
function tenantInputOf(values: TOptionValues): TTenantInput {
  const text = (name: string) => (typeof values[name] === 'string' ? values[name] : undefined);
  return {
    rnc: stringOption(values, 'rnc'),
    legalName: stringOption(values, 'legal-name'),
    ...(text('trade-name') !== undefined ? { tradeName: text('trade-name') } : {}),
    ...(text('address') !== undefined ? { address: text('address') } : {}),
    ...(Array.isArray(values.phone) ? { phones: values.phone } : {}),
    ...(text('email') !== undefined ? { fiscalEmail: text('email') } : {}),
    ...(text('production-state') !== undefined
      ? { productionState: text('production-state') as TTenantInput['productionState'] }
      : {}),
  };
}

/** A string option parseCommandLine has checked (required ones are present once checked). */
function stringOption(values: TOptionValues, name: string): string {
  const value = values[name];
  if (typeof value !== 'string') throw new Error(`--${name} was not checked`);
  return value;
}

/** The tenant an option names; an unknown one is a problem of that option. */
async function tenantOption(database: TDatabase, values: TOptionValues) {
  const reference = stringOption(values, 'tenant');
  try {
    return await getTenant({ database, reference });
  } catch (error) {
    if (!(error instanceof AppError && error.code === 'NOT_FOUND')) throw error;
    throw new CommandLineError(
      [
        {
          option: '--tenant',
          code: 'not_found',
          message: `tenant ${reference} not found (give its id or RNC)`,
        },
      ],
      'NOT_FOUND',
    );
  }
}

function optionProblem(option: string, message: string): CommandLineError {
  return new CommandLineError([{ option, code: 'invalid_value', message }]);
}

/** The certificate keyring from the environment; commands that need it fail clearly without it. */
function keyringOf(env: TEnv): TCertificateKeyring {
  if (!env.CERTIFICATE_MASTER_KEY) {
    throw new AppError(
      'INVALID_REQUEST',
      'CERTIFICATE_MASTER_KEY is not set: certificates are stored encrypted under it (32 random bytes, base64).',
    );
  }
  return createCertificateKeyring({
    currentKey: env.CERTIFICATE_MASTER_KEY,
    previousKeys: env.CERTIFICATE_MASTER_KEYS,
  });
}

function readP12(file: string): Buffer {
  try {
    return readFileSync(file);
  } catch {
    throw optionProblem('--p12', `cannot read the file ${file}`);
  }
}

/**
 * The demo tenant and one key per test environment; keys are kept in a local file so restarts reuse
 * them. With a keyring, the tenant also gets a generated test certificate (never valid for real
 * issuance) when it has no active one, so documents can be signed locally.
 */
async function seedDemo(
  database: TDatabase,
  files: { keys: string; users: string },
  keyring: TCertificateKeyring | undefined,
  io: TAdminIo,
) {
  const keysFile = files.keys;
  const existing =
    (await getTenant({ database, reference: DEMO_TENANT.rnc }).catch((error: unknown) => {
      if (error instanceof AppError && error.code === 'NOT_FOUND') return undefined;
      throw error;
    })) ?? (await createTenant({ database, input: DEMO_TENANT }));
  // Buyer e-mail on in TesteCF: accepted demo e-CF with a buyer e-mail reach the local mail catcher.
  const tenant = await enableBuyerEmail({ database, tenantId: existing.id, environment: 'TesteCF' });
  const saved: Record<string, string | undefined> = existsSync(keysFile)
    ? (JSON.parse(readFileSync(keysFile, 'utf8')) as Record<string, string>)
    : {};
  const keys: Record<string, string> = {};
  for (const environment of ['TesteCF', 'CerteCF'] as const) {
    const previous = saved[environment];
    const stillValid =
      previous !== undefined &&
      (await authenticateApiRequest({ database, key: previous, environment, requiredScopes: [] }).then(
        (principal) => principal.tenantId === tenant.id,
        () => false,
      ));
    keys[environment] =
      stillValid && previous
        ? previous
        : (
            await createApiKey({
              database,
              tenantId: tenant.id,
              environment,
              scopes: [...ALL_SCOPES],
              name: `demo ${environment}`,
            })
          ).key;
  }
  const partner = await seedDemoPartner({
    database,
    saved: {
      ...(saved.partner === undefined ? {} : { key: saved.partner }),
      ...(saved.partnerKeyId === undefined ? {} : { keyId: saved.partnerKeyId }),
    },
  });
  mkdirSync(path.dirname(keysFile), { recursive: true });
  writeFileSync(
    keysFile,
    `${JSON.stringify({ ...keys, partner: partner.key, partnerKeyId: partner.keyId }, null, 2)}\n`,
    { mode: 0o600 },
  );

  let certificate =
    (await findTenantCertificates({ database, tenantId: tenant.id })).find((row) => row.active) ?? null;
  if (!certificate && keyring) {
    const generated = createTestCertificate({
      rnc: tenant.rnc,
      commonName: `${tenant.legalName} (certificado de prueba)`,
    });
    certificate = await storeTenantCertificate({
      database,
      keyring,
      tenantId: tenant.id,
      p12: generated.p12,
      password: generated.password,
    });
  }
  if (!certificate && !keyring)
    io.err('admin: CERTIFICATE_MASTER_KEY is not set; the demo tenant gets no signing certificate.');
  const portalUsers = await seedDemoPortalUsers({ database, tenantId: tenant.id, usersFile: files.users });
  return { tenant, keys, certificate, portalUsers, partner };
}

async function run(
  database: TDatabase,
  commandLine: TParsedCommandLine,
  env: TEnv,
  io: TAdminIo,
): Promise<unknown> {
  const { command, values } = commandLine;
  switch (command) {
    case 'tenant create':
      return createTenant({ database, input: tenantInputOf(values) });
    case 'tenant list':
      return findTenants({ database });
    case 'key create': {
      const tenant = await tenantOption(database, values);
      return createApiKey({
        database,
        tenantId: tenant.id,
        environment: stringOption(values, 'environment') as Environment,
        scopes: scopesOf(values.scopes),
        ...(typeof values.name === 'string' ? { name: values.name } : {}),
      });
    }
    case 'key list': {
      const tenant = await tenantOption(database, values);
      return findApiKeys({ database, tenantId: tenant.id });
    }
    case 'key revoke': {
      const tenant = await tenantOption(database, values);
      const reference = stringOption(values, 'key');
      const key = await revokeApiKey({ database, tenantId: tenant.id, reference }).catch((error: unknown) => {
        if (!(error instanceof AppError && error.code === 'NOT_FOUND')) throw error;
        throw new CommandLineError(
          [
            {
              option: '--key',
              code: 'not_found',
              message: `API key ${reference} not found for this tenant (give its id or prefix)`,
            },
          ],
          'NOT_FOUND',
        );
      });
      return { id: key.id, prefix: key.prefix, revokedAt: key.revokedAt };
    }
    case 'certificate upload': {
      const tenant = await tenantOption(database, values);
      const p12 = readP12(stringOption(values, 'p12'));
      const variable = stringOption(values, 'password-env');
      const password = readNamedVariable(variable, io.env);
      if (password === undefined)
        throw optionProblem('--password-env', `the variable ${variable} is not set`);
      return storeTenantCertificate({
        database,
        keyring: keyringOf(env),
        tenantId: tenant.id,
        p12,
        password,
      });
    }
    case 'certificate list': {
      const tenant = await tenantOption(database, values);
      return findTenantCertificates({ database, tenantId: tenant.id });
    }
    case 'certificate reencrypt': {
      const tenant = typeof values.tenant === 'string' ? await tenantOption(database, values) : undefined;
      return reencryptTenantCertificates({
        database,
        keyring: keyringOf(env),
        ...(tenant ? { tenantId: tenant.id } : {}),
      });
    }
    case 'user create': {
      const variable = stringOption(values, 'password-env');
      const password = readNamedVariable(variable, io.env);
      if (password === undefined)
        throw optionProblem('--password-env', `the variable ${variable} is not set`);
      return createPortalUser({
        database,
        email: stringOption(values, 'email'),
        name: stringOption(values, 'name'),
        password,
        isSupport: values.support === true,
      });
    }
    case 'member add': {
      const tenant = await tenantOption(database, values);
      return addPortalMember({
        database,
        tenantId: tenant.id,
        email: stringOption(values, 'email'),
        role: stringOption(values, 'role') as MemberRole,
      });
    }
    case 'demo':
      return seedDemo(
        database,
        {
          keys:
            typeof values['keys-file'] === 'string'
              ? values['keys-file']
              : path.join(io.cwd, '.data', 'demo-keys.json'),
          users:
            typeof values['users-file'] === 'string'
              ? values['users-file']
              : path.join(io.cwd, '.data', 'demo-portal-users.json'),
        },
        env.CERTIFICATE_MASTER_KEY ? keyringOf(env) : undefined,
        io,
      );
    default:
      return (await runPartnerCommand(database, command, values)) ?? HELP;
  }
}

/** The error as the operator reads it (one line per problem) and as `--json` prints it, with its exit status. */
function describeFailure(error: unknown): {
  lines: string[];
  json: { code: string; message: string; problems?: TProblem[] };
  exitCode: number;
} {
  if (error instanceof CommandLineError) {
    const lines = error.problems.map(formatProblem);
    if (error.problems.some((problem) => problem.code === 'unknown_command')) lines.push('', HELP);
    return {
      lines,
      json: { code: error.code, message: error.message, problems: error.problems },
      exitCode: error.code === 'INVALID_REQUEST' ? 2 : 1,
    };
  }
  if (error instanceof ZodError) {
    // A use-case refused its input: name the options it came from (never zod's raw issue array).
    const problems = problemsOfIssues(error.issues, TENANT_FIELD_OPTIONS);
    return {
      lines: problems.map(formatProblem),
      json: { code: 'INVALID_REQUEST', message: problems.map(formatProblem).join('; '), problems },
      exitCode: 2,
    };
  }
  if (error instanceof AppError)
    return { lines: [error.message], json: { code: error.code, message: error.message }, exitCode: 1 };
  const message = error instanceof Error ? error.message : String(error);
  return { lines: [message], json: { code: 'INTERNAL_ERROR', message }, exitCode: 1 };
}

/** Where a run of the CLI reads its environment and writes its lines (the process's own, or a test's). */
export type TAdminIo = {
  /** The environment to read (the process's own when absent: src/env.ts reads it). */
  env?: NodeJS.ProcessEnv;
  cwd: string;
  out: (text: string) => void;
  err: (text: string) => void;
};

/**
 * One run of the CLI: `argv` as typed after `admin`; answers its exit status (0 done, 1 failed,
 * 2 bad command line). The process entry below runs it with the process's environment and streams;
 * the tests run most commands through it in their own process.
 */
export async function runAdmin(argv: readonly string[], io: TAdminIo): Promise<number> {
  const asJson = argv.includes('--json');
  let database: TDatabase | undefined;
  try {
    // The command line first: a bad option is answered without the environment or the database.
    const commandLine = parseCommandLine(argv, { ...COMMANDS, ...PARTNER_COMMANDS });
    const env = readEnv(io.env);
    database = createDatabaseClient({ databaseUrl: env.DATABASE_URL, maxConnections: 2 });
    const result = await run(database, commandLine, env, io);
    if (typeof result === 'string') io.out(result);
    else io.out(asJson ? JSON.stringify(result, null, 2) : formatHuman(result));
    return 0;
  } catch (error) {
    const failure = describeFailure(error);
    if (asJson) io.err(JSON.stringify({ error: failure.json }, null, 2));
    else for (const line of failure.lines) io.err(line === '' || line === HELP ? line : `admin: ${line}`);
    return failure.exitCode;
  } finally {
    await database?.$disconnect();
  }
}

if (import.meta.main) {
  process.exitCode = await runAdmin(process.argv.slice(2), {
    cwd: process.cwd(),
    out: (text) => console.log(text),
    err: (text) => console.error(text),
  });
}

function formatHuman(result: unknown): string {
  return JSON.stringify(
    result,
    (_key, value: unknown) => (value instanceof Date ? value.toISOString() : value),
    2,
  );
}
