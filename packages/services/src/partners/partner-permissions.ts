/**
 * The Partner API's permission table is the contract's (`@ecf/contract`, partner-key-profiles.ts);
 * here its profiles are checked against the database's enum (a profile missing there fails the build).
 */
import type { PartnerKeyProfile } from '@ecf/db';
import { PARTNER_KEY_PROFILES as CONTRACT_PARTNER_KEY_PROFILES } from '@ecf/contract';

export const PARTNER_KEY_PROFILES = CONTRACT_PARTNER_KEY_PROFILES satisfies readonly PartnerKeyProfile[];
