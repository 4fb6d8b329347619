// Operator command line: tenants, API keys and signing certificates. `npm run admin -- help` lists the commands.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import {
  ALL_SCOPES,
  createDatabaseClient,
  ENVIRONMENTS,
  type Environment,
  type TDatabase,
  type TScope,
} from '@ecf/db';
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

const HELP = `usage: npm run admin -- <command> [options]

  tenant create --rnc <RNC> --legal-name <name> [--trade-name <name>] [--address <text>]
                [--phone NNN-NNN-NNNN]... [--email <fiscal e-mail>] [--production-state <state>]
  tenant list
  key create --tenant <id|RNC> --environment <TesteCF|CerteCF|eCF> [--scopes a,b,...] [--name <label>]
             (default scopes: ecf:validate,ecf:create,ecf:read,status:read; all: ${ALL_SCOPES.join(',')})
  key list --tenant <id|RNC>
  key revoke --tenant <id|RNC> --key <id|prefix>
  certificate upload --tenant <id|RNC> --p12 <file> --password-env <VARIABLE> [--delegated]
             install the tenant's signing certificate (replaces the active one); the password is read
             from the named environment variable, never from the command line; --delegated accepts a
             holder other than the tenant's RNC (a person's certificate delegated for it)
  certificate list --tenant <id|RNC>
  certificate reencrypt [--tenant <id|RNC>]   after a master-key rotation, move certificates to the current key
  demo [--keys-file <path>]   create (once) the demo tenant, its TesteCF and CerteCF keys and a
                              generated test certificate (when CERTIFICATE_MASTER_KEY is set);
                              buyer e-mail is enabled in TesteCF

  --json   print JSON instead of text
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

type TOptions = Record<string, string | boolean | string[] | undefined>;

function required(options: TOptions, name: string): string {
  const value = options[name];
  if (typeof value !== 'string' || value === '')
    throw new AppError('INVALID_REQUEST', `--${name} is required.`);
  return value;
}

function parseEnvironment(value: string): Environment {
  if (!(ENVIRONMENTS as readonly string[]).includes(value)) {
    throw new AppError('INVALID_REQUEST', `--environment must be one of ${ENVIRONMENTS.join(', ')}.`);
  }
  return value as Environment;
}

function parseScopes(value: string | undefined): TScope[] {
  if (!value) return ['ecf:validate', 'ecf:create', 'ecf:read', 'status:read'];
  const scopes = value.split(',').map((scope) => scope.trim());
  const unknown = scopes.filter((scope) => !(ALL_SCOPES as string[]).includes(scope));
  if (unknown.length)
    throw new AppError(
      'INVALID_REQUEST',
      `unknown scope(s) ${unknown.join(', ')}; known: ${ALL_SCOPES.join(', ')}.`,
    );
  return scopes as TScope[];
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
    throw new AppError('INVALID_REQUEST', `--p12: cannot read the file ${file}.`);
  }
}

/**
 * The demo tenant and one key per test environment; keys are kept in a local file so restarts reuse
 * them. With a keyring, the tenant also gets a generated test certificate (never valid for real
 * issuance) when it has no active one, so documents can be signed locally.
 */
async function seedDemo(database: TDatabase, keysFile: string, keyring: TCertificateKeyring | undefined) {
  const existing =
    (await getTenant({ database, reference: DEMO_TENANT.rnc }).catch((error: unknown) => {
      if (error instanceof AppError && error.code === 'NOT_FOUND') return undefined;
      throw error;
    })) ?? (await createTenant({ database, input: DEMO_TENANT }));
  // Buyer e-mail on in TesteCF: accepted demo e-CF with a buyer e-mail reach the local mail catcher.
  const tenant = await enableBuyerEmail({ database, tenantId: existing.id, environment: 'TesteCF' });
  const saved: Record<string, string> = existsSync(keysFile)
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
  mkdirSync(path.dirname(keysFile), { recursive: true });
  writeFileSync(keysFile, `${JSON.stringify(keys, null, 2)}\n`, { mode: 0o600 });

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
    console.error('admin: CERTIFICATE_MASTER_KEY is not set; the demo tenant gets no signing certificate.');
  return { tenant, keys, certificate };
}

async function run(database: TDatabase, argv: string[], env: TEnv): Promise<unknown> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      rnc: { type: 'string' },
      'legal-name': { type: 'string' },
      'trade-name': { type: 'string' },
      address: { type: 'string' },
      phone: { type: 'string', multiple: true },
      email: { type: 'string' },
      'production-state': { type: 'string' },
      tenant: { type: 'string' },
      environment: { type: 'string' },
      scopes: { type: 'string' },
      name: { type: 'string' },
      key: { type: 'string' },
      'keys-file': { type: 'string' },
      p12: { type: 'string' },
      'password-env': { type: 'string' },
      delegated: { type: 'boolean' },
      json: { type: 'boolean' },
    },
  });
  const command = positionals.join(' ');
  switch (command) {
    case 'tenant create':
      return createTenant({
        database,
        input: {
          rnc: required(values, 'rnc'),
          legalName: required(values, 'legal-name'),
          ...(values['trade-name'] ? { tradeName: values['trade-name'] } : {}),
          ...(values.address ? { address: values.address } : {}),
          ...(values.phone ? { phones: values.phone } : {}),
          ...(values.email ? { fiscalEmail: values.email } : {}),
          ...(values['production-state'] ? { productionState: values['production-state'] as 'active' } : {}),
        },
      });
    case 'tenant list':
      return findTenants({ database });
    case 'key create': {
      const tenant = await getTenant({ database, reference: required(values, 'tenant') });
      return createApiKey({
        database,
        tenantId: tenant.id,
        environment: parseEnvironment(required(values, 'environment')),
        scopes: parseScopes(values.scopes),
        ...(values.name ? { name: values.name } : {}),
      });
    }
    case 'key list': {
      const tenant = await getTenant({ database, reference: required(values, 'tenant') });
      return findApiKeys({ database, tenantId: tenant.id });
    }
    case 'key revoke': {
      const tenant = await getTenant({ database, reference: required(values, 'tenant') });
      const key = await revokeApiKey({ database, tenantId: tenant.id, reference: required(values, 'key') });
      return { id: key.id, prefix: key.prefix, revokedAt: key.revokedAt };
    }
    case 'certificate upload': {
      const tenant = await getTenant({ database, reference: required(values, 'tenant') });
      const p12 = readP12(required(values, 'p12'));
      const variable = required(values, 'password-env');
      const password = readNamedVariable(variable);
      if (password === undefined)
        throw new AppError('INVALID_REQUEST', `--password-env: the variable ${variable} is not set.`);
      return storeTenantCertificate({
        database,
        keyring: keyringOf(env),
        tenantId: tenant.id,
        p12,
        password,
        allowDelegatedHolder: values.delegated === true,
      });
    }
    case 'certificate list': {
      const tenant = await getTenant({ database, reference: required(values, 'tenant') });
      return findTenantCertificates({ database, tenantId: tenant.id });
    }
    case 'certificate reencrypt': {
      const tenant = values.tenant ? await getTenant({ database, reference: values.tenant }) : undefined;
      return reencryptTenantCertificates({
        database,
        keyring: keyringOf(env),
        ...(tenant ? { tenantId: tenant.id } : {}),
      });
    }
    case 'demo':
      return seedDemo(
        database,
        values['keys-file'] ?? path.join(process.cwd(), '.data', 'demo-keys.json'),
        env.CERTIFICATE_MASTER_KEY ? keyringOf(env) : undefined,
      );
    case '':
    case 'help':
      return HELP;
    default:
      throw new AppError('INVALID_REQUEST', `unknown command "${command}".\n\n${HELP}`);
  }
}

const argv = process.argv.slice(2);
const asJson = argv.includes('--json');
const env = readEnv();
const database = createDatabaseClient({ databaseUrl: env.DATABASE_URL, maxConnections: 2 });
try {
  const result = await run(database, argv, env);
  if (typeof result === 'string') console.log(result);
  else console.log(asJson ? JSON.stringify(result, null, 2) : formatHuman(result));
} catch (error) {
  console.error(
    `admin: ${error instanceof AppError || (error as Error).name === 'TypeError' ? (error as Error).message : String(error)}`,
  );
  process.exitCode = 1;
} finally {
  await database.$disconnect();
}

function formatHuman(result: unknown): string {
  return JSON.stringify(
    result,
    (_key, value: unknown) => (value instanceof Date ? value.toISOString() : value),
    2,
  );
}
