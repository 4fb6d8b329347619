import { randomInt, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import type { TDatabase } from '@ecf/db';
import {
  addBrowserOrigin,
  createPartner,
  createPartnerKey,
  importTaxpayerRegistry,
  linkFiscalAccount,
  updatePartner,
} from '@ecf/services';
import { PARTNER_KEY_PROFILES, type TPartnerKeyProfile } from '@ecf/contract';

/** A random RNC nobody holds (9 digits starting with 4: seeds use 1). */
export const freshRnc = () => `4${String(randomInt(0, 100_000_000)).padStart(8, '0')}`;

/** Loads a registry of the given taxpayers (status ACTIVO unless said), as the admin CLI would. */
export async function loadRegistry(
  database: TDatabase,
  taxpayers: Array<{ rnc: string; status?: string; name?: string }>,
) {
  const text = taxpayers
    .map(
      (taxpayer) =>
        `${taxpayer.rnc}|${taxpayer.name ?? `CONTRIBUYENTE ${taxpayer.rnc} SRL`}|COMERCIAL|VENTA|||||01/01/2000|${taxpayer.status ?? 'ACTIVO'}|NORMAL`,
    )
    .join('\n');
  return importTaxpayerRegistry({
    database,
    source: Readable.from([Buffer.from(text, 'latin1')]),
    fileName: 'test.txt',
  });
}

/** A Partner (paid, plan `starter`) with one key per profile and a registered origin. */
export async function seedPartner(database: TDatabase, options: { name?: string; paid?: boolean } = {}) {
  const partner = await createPartner({
    database,
    input: {
      name: options.name ?? `Partner ${randomUUID().slice(0, 8)}`,
      paidStatus: options.paid === false ? 'unpaid' : 'paid',
      billingUrl: 'https://billing.example.com/pay',
    },
  });
  const keys = {} as Record<TPartnerKeyProfile, string>;
  for (const profile of PARTNER_KEY_PROFILES)
    keys[profile] = (await createPartnerKey({ database, partnerId: partner.id, name: profile, profile })).key;
  await addBrowserOrigin({ database, partnerId: partner.id, origin: 'https://erp.example.com' });
  return { partner, keys };
}

/** An account of the Partner (its RNC added to the registry first when `registry` lists it). */
export async function seedAccount(
  database: TDatabase,
  partnerId: string,
  options: { rnc?: string; externalTenantId?: string } = {},
) {
  const rnc = options.rnc ?? freshRnc();
  await loadRegistryWith(database, rnc);
  const { account } = await linkFiscalAccount({
    database,
    partnerId,
    externalTenantId: options.externalTenantId ?? `ext-${randomUUID()}`,
    input: { rnc, legalName: `Cliente ${rnc} SRL`, address: 'Calle 1, Santo Domingo', phone: '809-555-0199' },
  });
  return account;
}

const registered = new Map<TDatabase, Map<string, string>>();
/**
 * Adds taxpayers to the test file's registry, keeping those added before (each import replaces
 * the whole registry): an RNC alone is ACTIVO, `rnc:STATUS` another status.
 */
export async function loadRegistryWith(database: TDatabase, ...entries: string[]) {
  const known = registered.get(database) ?? new Map<string, string>();
  for (const entry of entries) {
    const [rnc = '', status = 'ACTIVO'] = entry.split(':');
    known.set(rnc, status);
  }
  registered.set(database, known);
  await loadRegistry(
    database,
    [...known].map(([rnc, status]) => ({ rnc, status })),
  );
}

export { updatePartner };
