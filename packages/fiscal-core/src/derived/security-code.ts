/**
 * `CodigoSeguridad`: "los primeros seis (6) dígitos del hash generado en el SignatureValue" (DGII
 * Descripción Técnica p.28). Every implementation, and the tax authority, reads it as the first six
 * characters of the base64 text of `SignatureValue`, case-sensitive, possibly containing `+` or `/`.
 */
export function securityCodeFromSignatureValue(signatureValue: string): string {
  // SignatureValue may be wrapped across lines by other signers; whitespace is not part of the base64.
  const compact = signatureValue.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]{6}/.test(compact)) {
    throw new TypeError(
      'securityCodeFromSignatureValue: expected a base64 SignatureValue of at least six characters.',
    );
  }
  return compact.slice(0, 6);
}
