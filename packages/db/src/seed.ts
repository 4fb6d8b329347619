import { randomInt } from 'node:crypto';
import type { TDatabase } from './client.ts';
import type { Environment, ProductionState } from './generated/prisma/enums.ts';
import { API_KEY_SCOPES, generateApiKey, STANDARD_SCOPES, type TScope } from './api-keys.ts';

/** Creates a tenant (taxpayer account). Unspecified fields get plausible values; the RNC is random. */
export async function seedTenant(
  database: TDatabase,
  input: {
    rnc?: string;
    legalName?: string;
    tradeName?: string | null;
    address?: string | null;
    phones?: string[];
    fiscalEmail?: string | null;
    productionState?: ProductionState;
    plan?: string;
  } = {},
) {
  const rnc = input.rnc ?? `1${String(randomInt(0, 100_000_000)).padStart(8, '0')}`;
  return database.tenant.create({
    data: {
      rnc,
      legalName: input.legalName ?? `Empresa de Prueba ${rnc} SRL`,
      tradeName: input.tradeName === undefined ? 'Empresa de Prueba' : input.tradeName,
      address: input.address === undefined ? 'Av. Winston Churchill 1099, Santo Domingo' : input.address,
      phones: input.phones ?? ['809-555-0100'],
      fiscalEmail: input.fiscalEmail === undefined ? `facturacion+${rnc}@example.com` : input.fiscalEmail,
      productionState: input.productionState ?? 'not_requested',
      plan: input.plan ?? 'standard',
    },
  });
}

/**
 * Creates an API key for a tenant in one environment and returns the key in clear, the only
 * time it is ever available.
 */
export async function seedApiKey(
  database: TDatabase,
  input: { tenantId: string; environment: Environment; scopes?: TScope[]; name?: string },
) {
  const scopes = input.scopes ?? STANDARD_SCOPES;
  const { key, prefix, hash } = generateApiKey(input.environment);
  const record = await database.apiKey.create({
    data: {
      tenantId: input.tenantId,
      environment: input.environment,
      name: input.name ?? `${input.environment} key`,
      prefix,
      hash,
      scopes: scopes.map((scope) => API_KEY_SCOPES[scope]),
    },
  });
  return { key, record };
}
