/**
 * THE permission table of the Partner API (interface spec, Authentication 5): its key profiles and
 * the limited profiles that hold each permission; the `full` profile (the default) holds every
 * permission. The Partner route table names one permission per route, and the API's test generates
 * every route × profile case from these two tables; nothing else decides a Partner permission. The
 * database's `PartnerKeyProfile` enum is checked against the profiles where the services use them.
 */
export const PARTNER_KEY_PROFILES = ['full', 'onboarding', 'runtime', 'webhooks'] as const;

export type TPartnerKeyProfile = (typeof PARTNER_KEY_PROFILES)[number];

/** Limited profiles that hold each permission (`full` holds them all). */
export const PARTNER_PERMISSIONS = {
  /** Create, list, read fiscal accounts and change their profile. */
  'fiscal-accounts:manage': ['onboarding'],
  /** Certificate upload and rotation sessions, certificate metadata. */
  'certificates:manage': ['onboarding'],
  /** Certification status, application data, sets, cases, runs, evidence. */
  'certification:read': ['onboarding'],
  /** Upload sets, create and close cases, run. */
  'certification:execute': ['onboarding'],
  /** Attestations and certification XML signatures. */
  'certification:attest': ['onboarding'],
  /** Request the production activation. */
  'production:request': ['onboarding'],
  /** Production state and monthly usage. */
  'production:read': ['onboarding', 'runtime'],
  /** Preflight of documents and annulments. */
  'documents:validate': ['onboarding', 'runtime'],
  /** Emission, annulment, range registration, commercial approval. */
  'documents:create': ['runtime'],
  /** Status, XML, PDF, annulments, ranges, received documents. */
  'documents:read': ['runtime'],
  /** Webhook endpoints and deliveries. */
  'webhooks:manage': ['webhooks'],
} as const satisfies Record<string, readonly Exclude<TPartnerKeyProfile, 'full'>[]>;

export type TPartnerPermission = keyof typeof PARTNER_PERMISSIONS;

export const PARTNER_PERMISSION_NAMES = Object.keys(PARTNER_PERMISSIONS) as TPartnerPermission[];

/** True when a key of `profile` holds `permission`. */
export function profileHasPermission(profile: TPartnerKeyProfile, permission: TPartnerPermission): boolean {
  return profile === 'full' || (PARTNER_PERMISSIONS[permission] as readonly string[]).includes(profile);
}

/** The profiles that hold `permission` (what the authentication statement compares the key's with). */
export function profilesWithPermission(permission: TPartnerPermission): TPartnerKeyProfile[] {
  return PARTNER_KEY_PROFILES.filter((profile) => profileHasPermission(profile, permission));
}

/** Every permission of a profile, in the table's order. */
export function permissionsOfProfile(profile: TPartnerKeyProfile): TPartnerPermission[] {
  return PARTNER_PERMISSION_NAMES.filter((permission) => profileHasPermission(profile, permission));
}
