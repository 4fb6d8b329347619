import { randomInt, randomUUID } from 'node:crypto';
import type { TDatabase } from './client.ts';
import type { Prisma } from './generated/prisma/client.ts';
import type { DocumentStatus, Environment, MemberRole, ProductionState } from './generated/prisma/enums.ts';
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
  // A random RNC can collide with another test's tenant (many share a database): draw again.
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await createTenant(database, input, input.rnc ?? randomRnc());
    } catch (error) {
      const collided =
        input.rnc === undefined &&
        attempt < 5 &&
        typeof error === 'object' &&
        error !== null &&
        (error as { code?: unknown }).code === 'P2002';
      if (!collided) throw error;
    }
  }
}

const randomRnc = () => `1${String(randomInt(0, 100_000_000)).padStart(8, '0')}`;

function createTenant(database: TDatabase, input: Parameters<typeof seedTenant>[1] & object, rnc: string) {
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

/**
 * Creates an issued document directly (no validation, no jobs): for tests and fixtures that need
 * a document in a given state. The type is read from the eNCF (`E31...` is 31).
 */
export async function seedDocument(
  database: TDatabase,
  input: {
    tenantId: string;
    encf: string;
    environment?: Environment;
    status?: DocumentStatus;
    totalAmount?: string;
    contingencySince?: Date | null;
    lastError?: Prisma.InputJsonValue;
  },
) {
  return database.document.create({
    data: {
      tenantId: input.tenantId,
      environment: input.environment ?? 'TesteCF',
      type: Number(input.encf.slice(1, 3)),
      encf: input.encf,
      status: input.status ?? 'queued_for_signing',
      format: 'simplified',
      issueDate: new Date('2026-11-20'),
      totalAmount: input.totalAmount ?? '118.00',
      submittedPayload: { encf: input.encf },
      contingencySince: input.contingencySince ?? null,
      ...(input.lastError === undefined ? {} : { lastError: input.lastError }),
    },
  });
}

/**
 * Creates a portal user. `passwordHash` is an argon2id PHC string (`hashPassword` of @ecf/services
 * makes one: this package holds no password hashing). The e-mail is lower-cased as the database
 * requires; unspecified, it is random.
 */
export async function seedUser(
  database: TDatabase,
  input: { passwordHash: string; email?: string; name?: string; isSupport?: boolean },
) {
  const email = (input.email ?? `user-${randomUUID()}@example.com`).trim().toLowerCase();
  return database.user.create({
    data: {
      email,
      name: input.name ?? email.split('@')[0] ?? email,
      passwordHash: input.passwordHash,
      isSupport: input.isSupport ?? false,
    },
  });
}

/** Makes a user a member of a tenant with a role. */
export async function seedMembership(
  database: TDatabase,
  input: { userId: string; tenantId: string; role: MemberRole },
) {
  return database.membership.create({ data: input });
}
