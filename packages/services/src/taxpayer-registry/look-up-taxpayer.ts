import type { TDatabase } from '@ecf/db';
import { findCurrentRegistryImport, findRegistryEntry } from '../persistence/index.ts';

/** How long a process trusts what it last read about the current import (another process may load a new one). */
const STATE_TTL_MS = 10_000;

type TRegistryState = { importId: string | null; readAt: number };
const states = new WeakMap<TDatabase, TRegistryState>();

async function currentImportId(database: TDatabase, now: number): Promise<string | null> {
  const cached = states.get(database);
  if (cached !== undefined && now - cached.readAt < STATE_TTL_MS) return cached.importId;
  const current = await findCurrentRegistryImport(database);
  const importId = current?.id ?? null;
  states.set(database, { importId, readAt: now });
  return importId;
}

/** Forgets what this process knew of the current import (an import just completed here). */
export function forgetRegistryState(database: TDatabase): void {
  states.delete(database);
}

/** A registry entry as callers see it. */
export type TTaxpayer = {
  rnc: string;
  name: string;
  tradeName: string | null;
  activity: string | null;
  status: string;
};

/** True for the registry's ACTIVE status (as the file writes it, `ACTIVO`). */
export function isActiveTaxpayerStatus(status: string): boolean {
  return ['ACTIVO', 'ACTIVE'].includes(status.trim().toUpperCase());
}

/**
 * An RNC or cédula in the current taxpayer registry: `loaded: false` when no registry was ever
 * loaded (the admin CLI's `registry import`), else the entry or null when it is not there.
 */
export async function lookUpTaxpayer(options: {
  database: TDatabase;
  rnc: string;
}): Promise<{ loaded: false } | { loaded: true; taxpayer: TTaxpayer | null }> {
  const found = await lookUpIn(options.database, options.rnc);
  if (found.loaded && found.taxpayer !== null) return found;
  // A refusal is never made on a stale read: a registry another process loaded in the last
  // seconds (the admin CLI) is read again before an RNC is called unknown or the registry absent.
  forgetRegistryState(options.database);
  return lookUpIn(options.database, options.rnc);
}

async function lookUpIn(
  database: TDatabase,
  rnc: string,
): Promise<{ loaded: false } | { loaded: true; taxpayer: TTaxpayer | null }> {
  const importId = await currentImportId(database, Date.now());
  if (importId === null) return { loaded: false };
  return { loaded: true, taxpayer: await findRegistryEntry(database, { importId, rnc }) };
}

/**
 * Rule 18's look-up for fiscal-core's `validateSubmission` (`lookupTaxpayer`): undefined while no
 * registry is loaded (fiscal-core then adds no registry warning), else a function of the RNC.
 */
export async function taxpayerLookupFor(
  database: TDatabase,
): Promise<((rnc: string) => Promise<{ status: string } | null>) | undefined> {
  const importId = await currentImportId(database, Date.now());
  if (importId === null) return undefined;
  return async (rnc) => {
    const entry = await findRegistryEntry(database, { importId, rnc });
    return entry === null ? null : { status: entry.status };
  };
}
