/**
 * Who may do what in the portal: THE table (single source of truth). Each capability lists the
 * tenant roles that have it; operator staff (`support`) are handled explicitly below. The portal's
 * tRPC procedures (`tenantProcedure(capability)`, `supportProcedure(capability)`), its navigation
 * and its role × procedure test matrix all read this table; nothing else decides a permission.
 *
 * Adding a capability (a later page): add a line here with the roles, and, when support may read
 * it, to SUPPORT_READS; the matrix test then expects exactly that.
 */
import type { MemberRole, TScope } from '@ecf/db';

export const MEMBER_ROLES = ['owner', 'developer', 'accountant'] as const satisfies readonly MemberRole[];

export const CAPABILITIES = {
  /** The tenant's overview (documents by status, banners). */
  'overview.read': ['owner', 'developer', 'accountant'],
  /** Issued documents: lists, a document's page, its timeline. */
  'documents.read': ['owner', 'developer', 'accountant'],
  /** Signed XML and PDF downloads. */
  'documents.download': ['owner', 'developer', 'accountant'],
  /** A document's evidence bundle (ZIP with manifest.json of SHA-256s). */
  'evidence.download': ['owner'],
  /** Try it: preflight and emission in TesteCF from the portal. */
  'emission.test': ['owner', 'developer'],
  /** API keys: list. */
  'keys.read': ['owner', 'developer'],
  /** API keys: create (never with more power than the role, see `grantableScopes`) and revoke. */
  'keys.manage': ['owner', 'developer'],
  /** Certificate metadata and history (never the key). */
  'certificate.read': ['owner', 'developer', 'accountant'],
  /** Upload a new signing certificate. */
  'certificate.manage': ['owner'],
  /** The account's profile and settings. */
  'account.read': ['owner', 'developer', 'accountant'],
  /** Change the account's settings (buyer e-mail, payment terms...). */
  'account.manage': ['owner'],
  /** The member list and pending invitations. */
  'members.read': ['owner', 'developer', 'accountant'],
  /** Invite, change roles, remove members. */
  'members.manage': ['owner'],
  /** The tenant's portal audit log (support's views included). */
  'audit.read': ['owner'],
  /** Webhook endpoints of an environment and their deliveries log (each attempt): read. */
  'webhooks.read': ['owner', 'developer'],
  /** Webhook endpoints: create, change, pause, rotate the secret, retire, send a test, replay a delivery. */
  'webhooks.manage': ['owner', 'developer'],
  /** eNCF ranges registered per environment (sequences) and annulments (ANECF): read. */
  'annulments.read': ['owner', 'developer'],
  /** Register a range; prevalidate, send and reconcile an annulment (ANECF) with the tax authority. */
  'annulments.manage': ['owner', 'developer'],
  /** Received e-CF (suppliers') and received commercial approvals (customers'), their XML: read. */
  'inbound.read': ['owner', 'developer', 'accountant'],
  /** Accept or reject a received e-CF (send its ACECF), reconcile an uncertain dispatch. */
  'inbound.approve': ['owner', 'accountant'],
  /** Certification in CerteCF: the fifteen steps, the runs row by row, their evidence, the commercial approval tests. */
  'certification.read': ['owner', 'developer', 'accountant'],
  /**
   * Certification: upload and prevalidate sets, start runs, restart a part, send the commercial
   * approvals, attest the steps done at the tax authority's portal, resend a receipt, request production.
   */
  'certification.manage': ['owner', 'developer'],
  /** Support desk: contingency across tenants, outage episodes, operator notifications (support only). */
  'support.read': [],
  /** Support desk actions: acknowledge a notification, reconcile an uncertain delivery (support only). */
  'support.act': [],
} as const satisfies Record<string, readonly MemberRole[]>;

export type TCapability = keyof typeof CAPABILITIES;

/**
 * What operator staff may do: read every tenant (each view of a tenant's data is written to that
 * tenant's audit log by the portal), and act only through the support desk's named actions.
 */
export const SUPPORT_READS = [
  'overview.read',
  'documents.read',
  'documents.download',
  'evidence.download',
  'keys.read',
  'certificate.read',
  'account.read',
  'members.read',
  'audit.read',
  'webhooks.read',
  'annulments.read',
  'inbound.read',
  'certification.read',
  'support.read',
] as const satisfies readonly TCapability[];

/** The support desk's named actions: the only writes support makes. */
export const SUPPORT_ACTIONS = ['support.act'] as const satisfies readonly TCapability[];

/** Who is asking: a tenant member with a role, or operator staff. */
export type TPrincipal = { kind: 'member'; role: MemberRole } | { kind: 'support' };

/** True when the principal has the capability (the one decision of every portal permission). */
export function hasCapability(principal: TPrincipal, capability: TCapability): boolean {
  if (principal.kind === 'support')
    return (
      (SUPPORT_READS as readonly TCapability[]).includes(capability) ||
      (SUPPORT_ACTIONS as readonly TCapability[]).includes(capability)
    );
  return (CAPABILITIES[capability] as readonly MemberRole[]).includes(principal.role);
}

/** Every capability the principal has, in the table's order (the navigation shows what they allow). */
export function capabilitiesOf(principal: TPrincipal): TCapability[] {
  return (Object.keys(CAPABILITIES) as TCapability[]).filter((capability) =>
    hasCapability(principal, capability),
  );
}

/**
 * The API-key scopes a member may put on a key they create: never more power than their role.
 * `tenant:admin` (sequences, annulments, certification, commercial approvals) is the owner's.
 */
const GRANTABLE_SCOPES: Record<MemberRole, readonly TScope[]> = {
  owner: ['ecf:validate', 'ecf:create', 'ecf:read', 'status:read', 'tenant:admin'],
  developer: ['ecf:validate', 'ecf:create', 'ecf:read', 'status:read'],
  accountant: [],
};

/** Scopes a role may grant to a new API key (empty: it cannot create keys). */
export function grantableScopes(role: MemberRole): readonly TScope[] {
  return hasCapability({ kind: 'member', role }, 'keys.manage') ? GRANTABLE_SCOPES[role] : [];
}

/**
 * The Partner portal (issue 20): what the people who work for a Partner (not for a tenant) may do.
 * Their own roles, tied to a Partner (`partner_users`), never a tenant member's; the same one table
 * decides the procedures, the pages, the navigation and the role × procedure matrix.
 */
export const PARTNER_ROLES = ['partner_admin', 'partner_developer'] as const;
export type TPartnerRole = (typeof PARTNER_ROLES)[number];

export const PARTNER_CAPABILITIES = {
  /** The Partner's fiscal accounts with their production (and certification) state. */
  'partner.accounts.read': ['partner_admin', 'partner_developer'],
  /** An account's certification embed link and certificate upload session (the Partner API's, from the portal). */
  'partner.accounts.manage': ['partner_admin', 'partner_developer'],
  /** Partner keys: list. */
  'partner.keys.read': ['partner_admin', 'partner_developer'],
  /** Partner keys: create with a profile (the key shown once), revoke. */
  'partner.keys.manage': ['partner_admin', 'partner_developer'],
  /** Registered browser origins: list. */
  'partner.origins.read': ['partner_admin', 'partner_developer'],
  /** Register and remove browser origins (certificate uploads from the Partner's pages). */
  'partner.origins.manage': ['partner_admin'],
  /** Partner webhook endpoints and their deliveries: read. */
  'partner.webhooks.read': ['partner_admin', 'partner_developer'],
  /** Partner webhook endpoints: create, change, pause, rotate, retire; replay a delivery. */
  'partner.webhooks.manage': ['partner_admin', 'partner_developer'],
  /** Billing usage by month. */
  'partner.billing.read': ['partner_admin'],
} as const satisfies Record<string, readonly TPartnerRole[]>;

export type TPartnerCapability = keyof typeof PARTNER_CAPABILITIES;

/** True when a Partner role has the capability. */
export function hasPartnerCapability(role: TPartnerRole, capability: TPartnerCapability): boolean {
  return (PARTNER_CAPABILITIES[capability] as readonly TPartnerRole[]).includes(role);
}

/** Every Partner capability of a role, in the table's order. */
export function partnerCapabilitiesOf(role: TPartnerRole): TPartnerCapability[] {
  return (Object.keys(PARTNER_CAPABILITIES) as TPartnerCapability[]).filter((capability) =>
    hasPartnerCapability(role, capability),
  );
}

/** Who makes a change in a tenant, as the use-cases that check and audit it receive it. */
export type TPortalActor = { userId: string; principal: TPrincipal; ip?: string | null };
