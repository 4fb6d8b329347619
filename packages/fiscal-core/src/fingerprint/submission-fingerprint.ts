import { createHash } from 'node:crypto';
import { parseJsonLosslessly, type TJsonParseError, type TJsonValue } from '../json/lossless-json.ts';

/**
 * The replay fingerprint of a submission (rule 17): SHA-256 over a canonical form of the JSON exactly
 * as the ERP sent it, before placeholders are completed with the account's data.
 *
 * Canonical form `v1`: object members sorted by name (UTF-16 code unit order, as JSON Canonicalization
 * Scheme does), no whitespace, strings as `JSON.stringify` writes them, numbers by their source text
 * (`1.10` and `1.1` are different values for a fiscal document: the text is what gets signed).
 * The result is tagged with its algorithm (`v1:<hex>`) so a later algorithm can coexist with stored
 * fingerprints (versioning rule 6: old fingerprints stay accepted).
 */
export const FINGERPRINT_ALGORITHM = 'v1';

/** The fingerprint, or why the text is not JSON. */
export type TFingerprintResult = { readonly success: true; readonly fingerprint: string } | { readonly success: false; readonly error: TJsonParseError };

/** Fingerprint of raw JSON text; malformed JSON gives the parse error instead. */
export function computeSubmissionFingerprint(rawJsonText: string): TFingerprintResult {
  const parsed = parseJsonLosslessly(rawJsonText);
  if (!parsed.success) return parsed;
  return { success: true, fingerprint: fingerprintOfJson(parsed.value) };
}

/** Fingerprint of an already parsed value (the same as {@link computeSubmissionFingerprint} of its text). */
export function fingerprintOfJson(value: TJsonValue): string {
  const hash = createHash('sha256');
  hash.update(canonicalJson(value));
  return `${FINGERPRINT_ALGORITHM}:${hash.digest('hex')}`;
}

/** The `v1` canonical text. */
export function canonicalJson(value: TJsonValue): string {
  const parts: string[] = [];
  const write = (node: TJsonValue): void => {
    switch (node.kind) {
      case 'null': parts.push('null'); return;
      case 'boolean': parts.push(node.value ? 'true' : 'false'); return;
      case 'number': parts.push(node.text); return;
      case 'string': parts.push(JSON.stringify(node.value)); return;
      case 'array':
        parts.push('[');
        node.items.forEach((item, index) => {
          if (index > 0) parts.push(',');
          write(item);
        });
        parts.push(']');
        return;
      case 'object': {
        const keys = [...node.members.keys()].sort(compareCodeUnits);
        parts.push('{');
        keys.forEach((key, index) => {
          if (index > 0) parts.push(',');
          parts.push(JSON.stringify(key), ':');
          const member = node.members.get(key);
          if (member !== undefined) write(member);
        });
        parts.push('}');
        return;
      }
    }
  };
  write(value);
  return parts.join('');
}

function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
