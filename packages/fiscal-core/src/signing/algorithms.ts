/** The XMLDSig algorithm URIs of the tax authority's recipe (FACTS §3.1), spelled correctly (the PDF example has typos). */
export const XMLDSIG_NAMESPACE = 'http://www.w3.org/2000/09/xmldsig#';
export const C14N_10 = 'http://www.w3.org/TR/2001/REC-xml-c14n-20010315';
export const RSA_SHA256 = 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256';
export const ENVELOPED_SIGNATURE = 'http://www.w3.org/2000/09/xmldsig#enveloped-signature';
export const SHA256 = 'http://www.w3.org/2001/04/xmlenc#sha256';

/** The same URIs as one object, for callers (the simulator checks incoming signatures against it). */
export const XMLDSIG_ALGORITHMS = {
  namespace: XMLDSIG_NAMESPACE,
  canonicalization: C14N_10,
  signature: RSA_SHA256,
  envelopedTransform: ENVELOPED_SIGNATURE,
  digest: SHA256,
} as const;
