const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** True for a UUID in its usual text form (any letter case): references may be ids or other keys. */
export function isUuid(reference: string): boolean {
  return UUID.test(reference);
}

/** An eNCF: `E`, the two-digit type and ten digits. */
export const ENCF_PATTERN = /^E\d{12}$/;
