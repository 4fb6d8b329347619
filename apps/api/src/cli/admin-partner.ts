// The admin CLI's Partner API commands (issue 20): Partners, their keys and browser origins, plan and
// payment, portal users of a Partner, the load of the tax authority's taxpayer registry, and the
// catalogue of official certification sets (issue 26).
import { readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import type { TDatabase } from '@ecf/db';
import {
  addBrowserOrigin,
  addPartnerUser,
  AppError,
  createPartner,
  createPartnerKey,
  findBrowserOrigins,
  findPartnerKeys,
  findPartners,
  getPartner,
  importTaxpayerRegistry,
  listAllOfficialSets,
  loadOfficialSet,
  lookUpTaxpayer,
  removeBrowserOrigin,
  retireOfficialSet,
  revokePartnerKey,
  updatePartner,
} from '@ecf/services';
import { PARTNER_KEY_PROFILES, type TPartnerKeyProfile } from '@ecf/contract';
import { CommandLineError, type TCommandSpec, type TOptionValues } from './admin-options.ts';

const PARTNER = { type: 'string', required: true } as const;
const PAID = ['paid', 'overdue', 'unpaid'] as const;

/** The Partner commands and their options (merged into the CLI's table). */
export const PARTNER_COMMANDS: Readonly<Record<string, TCommandSpec>> = {
  'partner create': {
    options: {
      name: { type: 'string', required: true },
      plan: { type: 'string' },
      'paid-status': { type: 'string', choices: PAID },
      'billing-url': { type: 'string' },
    },
  },
  'partner list': { options: {} },
  'partner update': {
    options: {
      partner: PARTNER,
      name: { type: 'string' },
      plan: { type: 'string' },
      'paid-status': { type: 'string', choices: PAID },
      'billing-url': { type: 'string' },
      status: { type: 'string', choices: ['active', 'suspended'] },
    },
  },
  'partner key create': {
    options: {
      partner: PARTNER,
      name: { type: 'string', required: true },
      profile: { type: 'string', choices: PARTNER_KEY_PROFILES },
    },
  },
  'partner key list': { options: { partner: PARTNER } },
  'partner key revoke': { options: { partner: PARTNER, key: { type: 'string', required: true } } },
  'partner origin add': { options: { partner: PARTNER, origin: { type: 'string', required: true } } },
  'partner origin remove': { options: { partner: PARTNER, origin: { type: 'string', required: true } } },
  'partner origin list': { options: { partner: PARTNER } },
  'partner user add': {
    options: {
      partner: PARTNER,
      email: { type: 'string', required: true },
      role: { type: 'string', required: true, choices: ['partner_admin', 'partner_developer'] },
    },
  },
  'registry import': {
    options: {
      file: { type: 'string', required: true },
      encoding: { type: 'string', choices: ['latin1', 'utf8'] },
    },
  },
  'official-set load': {
    options: {
      ref: { type: 'string', required: true },
      name: { type: 'string', required: true },
      description: { type: 'string' },
      file: { type: 'string', required: true },
    },
  },
  'official-set list': { options: {} },
  'official-set retire': { options: { ref: { type: 'string', required: true } } },
};

export const PARTNER_HELP = `  partner create --name <name> [--plan <plan>] [--paid-status paid|overdue|unpaid] [--billing-url <url>]
  partner list
  partner update --partner <id> [--name] [--plan] [--paid-status paid|overdue|unpaid] [--billing-url] [--status active|suspended]
             overdue starts the grace period (PARTNER_PAYMENT_GRACE_DAYS) now
  partner key create --partner <id> --name <label> [--profile full|onboarding|runtime|webhooks]
             the clear partner key (X-PARTNER-KEY) is printed once; only its SHA-256 is stored
  partner key list --partner <id>
  partner key revoke --partner <id> --key <id|prefix>
  partner origin add|remove --partner <id> --origin https://host[:port]
  partner origin list --partner <id>
  partner user add --partner <id> --email <address> --role partner_admin|partner_developer
             an existing portal user (user create) works for the Partner in the portal
  registry import --file <DGII_RNC.TXT> [--encoding latin1|utf8]
             load the tax authority's taxpayer file (pipe-separated, latin1 by default) as the new
             registry: streamed with COPY, replaced atomically (docs/partner-api.md, "Taxpayer registry")
  official-set load --ref <ref> --name <name> [--description <text>] --file <Set de Pruebas e-CF.xlsx>
             add a data-test workbook in the tax authority's format (sheets ECF and RFCE) to the
             catalogue of GET /partner/v1/certification/official-sets, read and checked like an
             uploaded set (every problem listed); the ref (letters, digits, . _ -) is what Partners
             send as officialSetRef and is never reused; the newest set is the catalogue's default;
             a run sends the rows for the account's RNC
  official-set list          every set, retired ones included (retiredAt)
  official-set retire --ref <ref>
             take a set out of the catalogue: no new case or change of set may choose it; the cases
             already on it keep it and run it (openCases counts them); it is never deleted`;

const text = (values: TOptionValues, name: string) =>
  typeof values[name] === 'string' ? values[name] : undefined;
const required = (values: TOptionValues, name: string) => {
  const value = values[name];
  if (typeof value !== 'string') throw new Error(`--${name} was not checked`);
  return value;
};

/** Runs a Partner command; undefined when `command` is not one. */
export async function runPartnerCommand(
  database: TDatabase,
  command: string,
  values: TOptionValues,
): Promise<unknown> {
  const partnerId = () => required(values, 'partner');
  switch (command) {
    case 'partner create': {
      const paidStatus = text(values, 'paid-status') as (typeof PAID)[number] | undefined;
      return createPartner({
        database,
        input: {
          name: required(values, 'name'),
          ...(text(values, 'plan') === undefined ? {} : { plan: text(values, 'plan') }),
          ...(paidStatus === undefined ? {} : { paidStatus }),
          ...(text(values, 'billing-url') === undefined ? {} : { billingUrl: text(values, 'billing-url') }),
        },
      });
    }
    case 'partner list':
      return findPartners({ database });
    case 'partner update': {
      const paidStatus = text(values, 'paid-status') as (typeof PAID)[number] | undefined;
      const status = text(values, 'status') as 'active' | 'suspended' | undefined;
      return updatePartner({
        database,
        partnerId: partnerId(),
        input: {
          ...(text(values, 'name') === undefined ? {} : { name: text(values, 'name') }),
          ...(text(values, 'plan') === undefined ? {} : { plan: text(values, 'plan') }),
          ...(paidStatus === undefined ? {} : { paidStatus }),
          ...(status === undefined ? {} : { status }),
          ...(text(values, 'billing-url') === undefined ? {} : { billingUrl: text(values, 'billing-url') }),
        },
      });
    }
    case 'partner key create': {
      const created = await createPartnerKey({
        database,
        partnerId: partnerId(),
        name: required(values, 'name'),
        profile: (text(values, 'profile') ?? 'full') as TPartnerKeyProfile,
      });
      return { key: created.key, ...created.row };
    }
    case 'partner key list':
      return findPartnerKeys({ database, partnerId: partnerId() });
    case 'partner key revoke':
      return revokePartnerKey({ database, partnerId: partnerId(), key: required(values, 'key') });
    case 'partner origin add':
      return addBrowserOrigin({ database, partnerId: partnerId(), origin: required(values, 'origin') });
    case 'partner origin remove':
      await removeBrowserOrigin({ database, partnerId: partnerId(), origin: required(values, 'origin') });
      return { removed: required(values, 'origin') };
    case 'partner origin list':
      await getPartner({ database, partnerId: partnerId() });
      return findBrowserOrigins({ database, partnerId: partnerId() });
    case 'partner user add':
      return addPartnerUser({
        database,
        partnerId: partnerId(),
        email: required(values, 'email'),
        role: required(values, 'role') as 'partner_admin' | 'partner_developer',
      });
    case 'official-set load':
      return loadOfficialSetCommand(database, values);
    case 'official-set list':
      return listAllOfficialSets({ database });
    case 'official-set retire':
      return retireOfficialSet({ database, ref: required(values, 'ref'), now: new Date() }).catch(
        (error: unknown) => {
          if (!(error instanceof AppError && error.code === 'NOT_FOUND')) throw error;
          throw new CommandLineError(
            [{ option: '--ref', code: 'not_found', message: `no official set ${required(values, 'ref')}` }],
            'NOT_FOUND',
          );
        },
      );
    case 'registry import':
      return importTaxpayerRegistry({
        database,
        source: required(values, 'file'),
        encoding: (text(values, 'encoding') ?? 'latin1') as 'latin1' | 'utf8',
      });
    default:
      return undefined;
  }
}

/** `official-set load`: a refusal names its option; a workbook's problems are listed one per line. */
async function loadOfficialSetCommand(database: TDatabase, values: TOptionValues) {
  const file = required(values, 'file');
  let content: Buffer;
  try {
    content = readFileSync(file);
  } catch {
    throw new CommandLineError([
      { option: '--file', code: 'invalid_value', message: `cannot read the file ${file}` },
    ]);
  }
  try {
    return await loadOfficialSet({
      database,
      ref: required(values, 'ref'),
      name: required(values, 'name'),
      description: text(values, 'description'),
      content,
      now: new Date(),
    });
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    const details = error.details ?? {};
    if (error.code === 'INVALID_REQUEST' && typeof details['field'] === 'string')
      throw new CommandLineError([
        { option: `--${details['field']}`, code: 'invalid_value', message: error.message },
      ]);
    if (error.code === 'CERTIFICATION_SET_INVALID') {
      const errors = (details['errors'] ?? []) as Array<{
        sheet: string | null;
        row: number | null;
        column: string | null;
        code: string;
        message: string;
      }>;
      throw new CommandLineError(
        errors.length === 0
          ? [{ option: '--file', code: 'invalid_value', message: error.message }]
          : errors.map((problem) => ({
              option: '--file',
              code: problem.code,
              message: [problem.sheet, problem.row === null ? null : `row ${problem.row}`, problem.column]
                .filter((part) => part !== null)
                .concat(problem.message)
                .join(': '),
            })),
      );
    }
    throw error;
  }
}

/** The development stack's Partner (`admin demo`): its name, origin and the taxpayers it may link. */
export const DEMO_PARTNER = {
  name: 'ERP Demo (demo)',
  origin: 'https://erp.demo.example',
  /** Loaded as the taxpayer registry only when none is loaded (a real one is never replaced). */
  registry: [
    { rnc: '401000011', name: 'FERRETERIA EL MARTILLO SRL' },
    { rnc: '401000022', name: 'COLMADO LA ESQUINA SRL' },
    { rnc: '401000033', name: 'FARMACIA SAN RAFAEL SRL' },
  ],
} as const;

/**
 * The demo Partner (created once, found by name afterwards), a `full` key kept in the demo keys
 * file like the tenant's (a revoked or lost key is replaced), its browser origin, and a registry of
 * three ACTIVE taxpayers when none is loaded, so `PUT /partner/v1/fiscal-accounts/by-external-id/…`
 * works on a fresh stack.
 */
export async function seedDemoPartner(options: {
  database: TDatabase;
  saved: { key?: string; keyId?: string };
}): Promise<{
  id: string;
  name: string;
  key: string;
  keyId: string;
  origin: string;
  registryRncs: string[];
}> {
  const { database } = options;
  const partner =
    (await findPartners({ database })).find((candidate) => candidate.name === DEMO_PARTNER.name) ??
    (await createPartner({
      database,
      input: { name: DEMO_PARTNER.name, paidStatus: 'paid', billingUrl: 'https://erp.demo.example/billing' },
    }));
  const keys = await findPartnerKeys({ database, partnerId: partner.id });
  const kept = keys.find((row) => row.id === options.saved.keyId && row.revokedAt === null);
  const key =
    kept !== undefined && options.saved.key !== undefined && options.saved.keyId !== undefined
      ? { key: options.saved.key, keyId: options.saved.keyId }
      : await createPartnerKey({ database, partnerId: partner.id, name: 'demo', profile: 'full' }).then(
          (created) => ({ key: created.key, keyId: created.row.id }),
        );
  await addBrowserOrigin({ database, partnerId: partner.id, origin: DEMO_PARTNER.origin });
  const registry = await lookUpTaxpayer({ database, rnc: DEMO_PARTNER.registry[0].rnc });
  if (!registry.loaded) {
    const lines = DEMO_PARTNER.registry.map(
      (taxpayer) => `${taxpayer.rnc}|${taxpayer.name}||COMERCIO|||||01/01/2020|ACTIVO|NORMAL`,
    );
    await importTaxpayerRegistry({
      database,
      source: Readable.from([Buffer.from(`${lines.join('\r\n')}\r\n`, 'latin1')]),
      fileName: 'demo-registry.txt',
    });
  }
  return {
    id: partner.id,
    name: partner.name,
    ...key,
    origin: DEMO_PARTNER.origin,
    registryRncs: DEMO_PARTNER.registry.map((taxpayer) => taxpayer.rnc),
  };
}
