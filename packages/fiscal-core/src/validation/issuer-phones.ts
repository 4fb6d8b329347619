/**
 * Rule 14, the issuer's phones: at most {@link MAX_ISSUER_PHONES}, each `NNN-NNN-NNNN`. The one
 * definition of the rule: validation checks submissions with it, and the account's profile (the
 * phones placed on documents that send none) is checked with it too.
 */
export const MAX_ISSUER_PHONES = 3;

const ISSUER_PHONE_PATTERN = /^\d{3}-\d{3}-\d{4}$/;

/** True when `value` is an issuer phone as the tax authority accepts it (`809-555-0101`). */
export function isIssuerPhone(value: string): boolean {
  return ISSUER_PHONE_PATTERN.test(value);
}
