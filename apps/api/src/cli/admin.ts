// Operator command line: tenants and API keys. `npm run admin -- help` lists the commands.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ALL_SCOPES, createDatabaseClient, ENVIRONMENTS, hashApiKey, type Environment, type TDatabase, type TScope } from '@ecf/db';
import { AppError, createApiKey, createTenant, findApiKeys, findTenants, getTenant, revokeApiKey } from '@ecf/services';
import { readEnv } from '../env.ts';

const HELP = `usage: npm run admin -- <command> [options]

  tenant create --rnc <RNC> --legal-name <name> [--trade-name <name>] [--address <text>]
                [--phone NNN-NNN-NNNN]... [--email <fiscal e-mail>] [--production-state <state>]
  tenant list
  key create --tenant <id|RNC> --environment <TesteCF|CerteCF|eCF> [--scopes a,b,...] [--name <label>]
             (default scopes: ecf:validate,ecf:create,ecf:read,status:read; all: ${ALL_SCOPES.join(',')})
  key list --tenant <id|RNC>
  key revoke --tenant <id|RNC> --key <id|prefix>
  demo [--keys-file <path>]   create (once) the demo tenant and its TesteCF and CerteCF keys

  --json   print JSON instead of text
The clear API key is printed once, at creation; only its SHA-256 is stored.`;

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
  if (typeof value !== 'string' || value === '') throw new AppError('INVALID_REQUEST', `--${name} is required.`);
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
  if (unknown.length) throw new AppError('INVALID_REQUEST', `unknown scope(s) ${unknown.join(', ')}; known: ${ALL_SCOPES.join(', ')}.`);
  return scopes as TScope[];
}

/** The demo tenant and one key per test environment; keys are kept in a local file so restarts reuse them. */
async function seedDemo(database: TDatabase, keysFile: string) {
  const tenant =
    (await database.tenant.findUnique({ where: { rnc: DEMO_TENANT.rnc } })) ??
    (await createTenant({ database, input: DEMO_TENANT }));
  const saved: Record<string, string> = existsSync(keysFile) ? (JSON.parse(readFileSync(keysFile, 'utf8')) as Record<string, string>) : {};
  const keys: Record<string, string> = {};
  for (const environment of ['TesteCF', 'CerteCF'] as const) {
    const previous = saved[environment];
    const stillValid = previous
      ? await database.apiKey.findFirst({ where: { hash: hashApiKey(previous), tenantId: tenant.id, revokedAt: null } })
      : null;
    keys[environment] = stillValid && previous
      ? previous
      : (await createApiKey({ database, tenantId: tenant.id, environment, scopes: [...ALL_SCOPES], name: `demo ${environment}` })).key;
  }
  mkdirSync(path.dirname(keysFile), { recursive: true });
  writeFileSync(keysFile, `${JSON.stringify(keys, null, 2)}\n`, { mode: 0o600 });
  return { tenant, keys };
}

async function run(database: TDatabase, argv: string[]): Promise<unknown> {
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
    case 'demo':
      return seedDemo(database, values['keys-file'] ?? path.join(process.cwd(), '.data', 'demo-keys.json'));
    case '':
    case 'help':
      return HELP;
    default:
      throw new AppError('INVALID_REQUEST', `unknown command "${command}".\n\n${HELP}`);
  }
}

const argv = process.argv.slice(2);
const asJson = argv.includes('--json');
const database = createDatabaseClient({ databaseUrl: readEnv().DATABASE_URL, maxConnections: 2 });
try {
  const result = await run(database, argv);
  if (typeof result === 'string') console.log(result);
  else console.log(asJson ? JSON.stringify(result, null, 2) : formatHuman(result));
} catch (error) {
  console.error(`admin: ${error instanceof AppError || (error as Error).name === 'TypeError' ? (error as Error).message : String(error)}`);
  process.exitCode = 1;
} finally {
  await database.$disconnect();
}

function formatHuman(result: unknown): string {
  return JSON.stringify(result, (_key, value: unknown) => (value instanceof Date ? value.toISOString() : value), 2);
}
