/**
 * THE navigation of the portal: one list, in menu order, of every page the portal has or will have,
 * with the capability each needs (the permission table of @ecf/services). The shell shows an entry
 * when it is `built` and the user's role has its capability; nothing else decides what the menu
 * shows. Client-safe (type-only import).
 *
 * A later page plugs in by creating its route folder (see apps/web/README.md, "Adding a page") and
 * setting `built: true` here (or adding its entry).
 */
import type { TCapability, TPartnerCapability } from '@ecf/services';
import { DEFAULT_ENVIRONMENT, type TEnvironment } from './environments.ts';

export type TNavEntry = {
  id: string;
  label: string;
  /**
   * `environment`: under `/{environment}/{segment}` (documents, keys... exist per environment);
   * `tenant`: `/{segment}`, one page for the whole account; `support`: the operator's desk;
   * `partner`: `/partner/{segment}`, the pages of people who work for a Partner (issue 20).
   */
  scope: 'environment' | 'tenant' | 'support' | 'partner';
  segment: string;
  capability: TCapability | TPartnerCapability;
  /** False: reserved for the issue that builds it; not shown until then. */
  built: boolean;
  /** Environments the page exists in (default: all three). */
  environments?: readonly TEnvironment[];
  /** Who builds it, for reserved entries. */
  plannedIn?: string;
};

export const NAV_ENTRIES: readonly TNavEntry[] = [
  {
    id: 'overview',
    label: 'Resumen',
    scope: 'environment',
    segment: 'overview',
    capability: 'overview.read',
    built: true,
  },
  {
    id: 'documents',
    label: 'Documentos',
    scope: 'environment',
    segment: 'documents',
    capability: 'documents.read',
    built: true,
    plannedIn: 'issue 15 (page 5)',
  },
  {
    id: 'try-it',
    label: 'Probar',
    scope: 'environment',
    segment: 'try-it',
    capability: 'emission.test',
    built: true,
    environments: ['TesteCF'],
    plannedIn: 'issue 15 (page 6)',
  },
  {
    id: 'api-keys',
    label: 'Claves API',
    scope: 'environment',
    segment: 'api-keys',
    capability: 'keys.read',
    built: true,
    plannedIn: 'issue 15 (page 3)',
  },
  {
    id: 'webhooks',
    label: 'Webhooks',
    scope: 'environment',
    segment: 'webhooks',
    capability: 'webhooks.read',
    built: true,
    plannedIn: 'webhooks issue',
  },
  {
    id: 'sequences',
    label: 'Secuencias',
    scope: 'environment',
    segment: 'sequences',
    capability: 'annulments.read',
    built: true,
    plannedIn: 'issue 17',
  },
  {
    id: 'annulments',
    label: 'Anulaciones',
    scope: 'environment',
    segment: 'annulments',
    capability: 'annulments.read',
    built: true,
    environments: ['TesteCF', 'eCF'],
    plannedIn: 'issue 17',
  },
  {
    id: 'received',
    label: 'Recibidos',
    scope: 'environment',
    segment: 'received',
    capability: 'inbound.read',
    built: true,
    plannedIn: 'issue 18',
  },
  {
    id: 'received-approvals',
    label: 'Aprobaciones recibidas',
    scope: 'environment',
    segment: 'received-approvals',
    capability: 'inbound.read',
    built: true,
    plannedIn: 'issue 18',
  },
  {
    id: 'certification',
    label: 'Certificación',
    scope: 'environment',
    segment: 'certification',
    capability: 'certification.read',
    built: true,
    // The page exists in every environment (elsewhere it points to CerteCF); the menu goes to CerteCF.
    environments: ['CerteCF'],
    plannedIn: 'issue 19',
  },
  {
    id: 'certificate',
    label: 'Certificado',
    scope: 'tenant',
    segment: 'certificate',
    capability: 'certificate.read',
    built: true,
    plannedIn: 'issue 15 (page 4)',
  },
  {
    id: 'account',
    label: 'Cuenta',
    scope: 'tenant',
    segment: 'account',
    capability: 'account.read',
    built: true,
  },
  {
    id: 'members',
    label: 'Miembros',
    scope: 'tenant',
    segment: 'members',
    capability: 'members.read',
    built: true,
  },
  {
    id: 'audit-log',
    label: 'Registro de auditoría',
    scope: 'tenant',
    segment: 'audit-log',
    capability: 'audit.read',
    built: true,
  },
  // The Partner portal (issue 20): people who work for a Partner (their own roles, no tenant).
  {
    id: 'partner-accounts',
    label: 'Cuentas fiscales',
    scope: 'partner',
    segment: 'accounts',
    capability: 'partner.accounts.read',
    built: true,
  },
  {
    id: 'partner-keys',
    label: 'Claves Partner',
    scope: 'partner',
    segment: 'keys',
    capability: 'partner.keys.read',
    built: true,
  },
  {
    id: 'partner-origins',
    label: 'Orígenes del navegador',
    scope: 'partner',
    segment: 'origins',
    capability: 'partner.origins.read',
    built: true,
  },
  {
    id: 'partner-webhooks',
    label: 'Webhooks Partner',
    scope: 'partner',
    segment: 'webhooks',
    capability: 'partner.webhooks.read',
    built: true,
  },
  {
    id: 'partner-billing',
    label: 'Consumo',
    scope: 'partner',
    segment: 'billing',
    capability: 'partner.billing.read',
    built: true,
  },
  {
    id: 'support',
    label: 'Mesa de soporte',
    scope: 'support',
    segment: 'support',
    capability: 'support.read',
    built: true,
  },
];

/** The entries a user sees: built, and allowed by their capabilities in the active tenant. */
export function visibleNavEntries(
  capabilities: readonly string[],
  entries: readonly TNavEntry[] = NAV_ENTRIES,
) {
  return entries.filter((entry) => entry.built && capabilities.includes(entry.capability));
}

/** Where an entry points, in `environment` for environment-scoped pages (else its first allowed one). */
export function hrefOf(entry: TNavEntry, environment: TEnvironment = DEFAULT_ENVIRONMENT): string {
  if (entry.scope === 'partner') return `/partner/${entry.segment}`;
  if (entry.scope !== 'environment') return `/${entry.segment}`;
  const allowed = entry.environments ?? [environment];
  const chosen = allowed.includes(environment) ? environment : (allowed[0] ?? DEFAULT_ENVIRONMENT);
  return `/${chosen}/${entry.segment}`;
}

/** Where `/` takes a signed-in user with an active tenant: the first page they may see. */
export function homePathOf(
  capabilities: readonly string[],
  environment: TEnvironment = DEFAULT_ENVIRONMENT,
): string {
  const first = visibleNavEntries(capabilities)[0];
  return first === undefined ? '/accounts' : hrefOf(first, environment);
}

/** True when `pathname` is the entry's page or below it. */
export function isActiveEntry(entry: TNavEntry, pathname: string): boolean {
  const parts = pathname.split('/').filter(Boolean);
  if (entry.scope === 'partner') return parts[0] === 'partner' && parts[1] === entry.segment;
  return entry.scope === 'environment' ? parts[1] === entry.segment : parts[0] === entry.segment;
}
