/**
 * A receiver's service URLs from its entry in the tax authority's directory (FACTS §1.10, §2): the
 * directory publishes hosts (`urlRecepcion`, `urlAceptacion`, `urlOpcional` for authentication);
 * the service paths are the tax authority's own. A URL that already ends with the path is kept.
 */

/** `{urlRecepcion}/fe/recepcion/api/ecf`: where an e-CF is delivered. */
export function receptionUrlOf(urlRecepcion: string): URL | undefined {
  return serviceUrl(urlRecepcion, /\/fe\/recepcion\/api\/ecf$/i, '/fe/recepcion/api/ecf');
}

/** `{urlAceptacion}/fe/aprobacioncomercial/api/ecf`: where a commercial approval (ACECF) is delivered. */
export function commercialApprovalUrlOf(urlAceptacion: string): URL | undefined {
  return serviceUrl(
    urlAceptacion,
    /\/fe\/aprobacioncomercial\/api\/ecf$/i,
    '/fe/aprobacioncomercial/api/ecf',
  );
}

/** `{urlOpcional}/fe/autenticacion/api`: base of the receiver's seed and certificate validation. */
export function authenticationBaseOf(urlOpcional: string): URL | undefined {
  const trimmed = urlOpcional.trim().replace(/\/(semilla|validacioncertificado)\/?$/i, '');
  return serviceUrl(trimmed, /\/fe\/autenticacion\/api$/i, '/fe/autenticacion/api');
}

function serviceUrl(configured: string, fullPath: RegExp, path: string): URL | undefined {
  let url: URL;
  try {
    url = new URL(configured.trim());
  } catch {
    return undefined;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
  const base = url.pathname.replace(/\/+$/, '');
  url.pathname = fullPath.test(base) ? base : `${base}${path}`;
  url.search = '';
  url.hash = '';
  return url;
}
