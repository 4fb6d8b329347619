/**
 * The Partner API key profiles (interface spec, Authentication 5): `full` holds every permission,
 * the others the permissions `@ecf/services`' permission table gives them. The database's
 * `PartnerKeyProfile` enum is checked against this list where the services use it.
 */
export const PARTNER_KEY_PROFILES = ['full', 'onboarding', 'runtime', 'webhooks'] as const;

export type TPartnerKeyProfile = (typeof PARTNER_KEY_PROFILES)[number];
