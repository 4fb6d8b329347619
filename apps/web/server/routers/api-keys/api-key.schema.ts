import { z } from 'zod';
import type { TScope } from '@ecf/db';
import type { TApiKeyRow } from '@ecf/services';
import { ENVIRONMENTS } from '../../../lib/environments.ts';

/** The REST API's scopes (client-safe copy of @ecf/db's list, checked against its type). */
export const API_KEY_SCOPES = [
  'ecf:validate',
  'ecf:create',
  'ecf:read',
  'status:read',
  'tenant:admin',
] as const satisfies readonly TScope[];

/** What each scope lets a key do, as the page explains it. */
export const SCOPE_LABELS: Record<(typeof API_KEY_SCOPES)[number], string> = {
  'ecf:validate': 'Validar documentos (preflight)',
  'ecf:create': 'Emitir e-CF',
  'ecf:read': 'Leer e-CF y descargas',
  'status:read': 'Consultar estados',
  'tenant:admin': 'Administración de la cuenta (secuencias, anulaciones, certificación)',
};

export const ZScope = z.enum(API_KEY_SCOPES, { error: 'Alcance desconocido.' });
export const ZEnvironment = z.enum(ENVIRONMENTS, { error: 'Ambiente desconocido.' });

/** A key as the page lists it: never its secret (which is not stored). */
export const ZApiKey = z.object({
  id: z.uuid(),
  name: z.string(),
  prefix: z.string(),
  environment: ZEnvironment,
  scopes: z.array(ZScope),
  createdAt: z.iso.datetime(),
  lastUsedAt: z.iso.datetime().nullable(),
  revokedAt: z.iso.datetime().nullable(),
});

export function apiKeyOf(row: Omit<TApiKeyRow, 'tenantId'>): z.infer<typeof ZApiKey> {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    environment: row.environment,
    scopes: row.scopes,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
  };
}
