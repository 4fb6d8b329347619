/**
 * What a spec seeds for itself (STYLE 16: every spec its own tenant), with the shared seed helpers
 * of @ecf/db on the stack's database: a tenant and its members with real argon2id passwords.
 */
import { randomBytes, randomInt, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import {
  createDatabaseClient,
  seedMembership,
  seedTenant,
  seedUser,
  type MemberRole,
  type TDatabase,
} from '@ecf/db';
import {
  addPartnerUser,
  createPartner,
  hashPassword,
  importTaxpayerRegistry,
  linkFiscalAccount,
} from '@ecf/services';
import { stack } from './stack.ts';

let database: TDatabase | undefined;

/** The stack's database (one client per spec process; `closeDatabase` in `after`). */
export function stackDatabase(): TDatabase {
  database ??= createDatabaseClient({ databaseUrl: stack().databaseUrl, maxConnections: 3 });
  return database;
}

export async function closeDatabase(): Promise<void> {
  await database?.$disconnect();
  database = undefined;
}

export type TPortalUser = { id: string; email: string; name: string; password: string };

/** A user with a fresh password (and a unique address: specs share the stack). */
export async function seedPortalUser(input: {
  name: string;
  isSupport?: boolean;
  email?: string;
}): Promise<TPortalUser> {
  const password = `clave-${randomBytes(9).toString('base64url')}`;
  const email =
    input.email ?? `${input.name.split(' ')[0]?.toLowerCase() ?? 'persona'}-${randomUUID()}@example.com`;
  const user = await seedUser(stackDatabase(), {
    email,
    name: input.name,
    passwordHash: await hashPassword(password),
    isSupport: input.isSupport ?? false,
  });
  return { id: user.id, email: user.email, name: user.name, password };
}

/**
 * A tenant with an owner and, optionally, more members with their roles. `rnc`: a given one (the
 * tax authority's certification workbooks are generated for one RNC); random otherwise.
 */
export async function seedPortalTenant(
  input: { tradeName?: string; rnc?: string; members?: Array<{ name: string; role: MemberRole }> } = {},
) {
  const tenant = await seedTenant(stackDatabase(), {
    tradeName: input.tradeName ?? `Comercial ${randomInt(0, 100_000)}`,
    ...(input.rnc === undefined ? {} : { rnc: input.rnc }),
  });
  const owner = await seedPortalUser({ name: 'Olga Propietaria' });
  const ownerMembership = await seedMembership(stackDatabase(), {
    userId: owner.id,
    tenantId: tenant.id,
    role: 'owner',
  });
  const members: Array<TPortalUser & { role: MemberRole; membershipId: string }> = [];
  for (const member of input.members ?? []) {
    const user = await seedPortalUser({ name: member.name });
    const membership = await seedMembership(stackDatabase(), {
      userId: user.id,
      tenantId: tenant.id,
      role: member.role,
    });
    members.push({ ...user, role: member.role, membershipId: membership.id });
  }
  return { tenant, owner: { ...owner, membershipId: ownerMembership.id }, members };
}

/**
 * A Partner (paid, with a billing URL) and a person who administers it in the portal
 * (`partner_admin`): the Partner specs' and the widths check's starting point.
 */
export async function seedPartnerAdmin(input: { name?: string } = {}) {
  const database = stackDatabase();
  const partner = await createPartner({
    database,
    input: {
      name: `ERP ${randomUUID().slice(0, 8)}`,
      paidStatus: 'paid',
      billingUrl: 'https://billing.example.com',
    },
  });
  const admin = await seedPortalUser({ name: input.name ?? 'Pablo Partner' });
  await addPartnerUser({ database, partnerId: partner.id, email: admin.email, role: 'partner_admin' });
  return { partner, admin };
}

/**
 * An account of `partnerId` as the Partner API links one (`PUT /fiscal-accounts/by-external-id`):
 * a fresh RNC put in the taxpayer registry first (linking checks it when a registry is loaded).
 */
export async function seedPartnerFiscalAccount(partnerId: string) {
  const database = stackDatabase();
  const rnc = `4${String(randomInt(0, 100_000_000)).padStart(8, '0')}`;
  await importTaxpayerRegistry({
    database,
    source: Readable.from([
      Buffer.from(`${rnc}|CLIENTE ${rnc} SRL|CLIENTE|VENTA|||||01/01/2000|ACTIVO|NORMAL`, 'latin1'),
    ]),
    fileName: 'registro.txt',
  });
  const { account } = await linkFiscalAccount({
    database,
    partnerId,
    externalTenantId: `erp-${randomUUID()}`,
    input: { rnc, legalName: `Cliente ${rnc} SRL`, address: 'Calle 1, Santo Domingo' },
  });
  return account;
}
