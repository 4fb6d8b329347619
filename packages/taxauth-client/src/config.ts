/** Environments, hosts and paths of the tax authority's web services (FACTS §1.1). */

/** The three environments, spelled as DGII's own libraries spell them. */
export const TAXAUTH_ENVIRONMENTS = ['TesteCF', 'CerteCF', 'eCF'] as const;
export type TTaxauthEnvironment = (typeof TAXAUTH_ENVIRONMENTS)[number];

/** Path segment after the host that selects the environment. */
export const ENVIRONMENT_PATH_SEGMENTS: Readonly<Record<TTaxauthEnvironment, 'testecf' | 'certecf' | 'ecf'>> =
  {
    TesteCF: 'testecf',
    CerteCF: 'certecf',
    eCF: 'ecf',
  };

/** `ambiente` parameter of `verificarestado` (1 PreCertificación, 2 Producción, 3 Certificación). */
export const STATUS_ENVIRONMENT_CODES: Readonly<Record<TTaxauthEnvironment, 1 | 2 | 3>> = {
  TesteCF: 1,
  eCF: 2,
  CerteCF: 3,
};

/** Base URLs: `ecf` for everything but consumer-invoice summaries, `fc` for those, `status` for service status. */
export type TTaxauthBaseUrls = { ecf: string; fc: string; status: string };

/** The real hosts. In tests all three are the simulator's base URL. */
export const DGII_BASE_URLS: Readonly<TTaxauthBaseUrls> = Object.freeze({
  ecf: 'https://ecf.dgii.gov.do',
  fc: 'https://fc.dgii.gov.do',
  status: 'https://statusecf.dgii.gov.do',
});

/** Default timeout of one HTTP exchange (connect, send, read the whole answer). */
export const DEFAULT_TIMEOUT_MS = 30_000;
/** Default: refresh a token 5 minutes before it expires (tokens live one hour). */
export const DEFAULT_TOKEN_REFRESH_MARGIN_SECONDS = 300;

/** Paths below `{base}/{environment}/` (DGII documents them lower case; routing is case-insensitive). */
export const SERVICE_PATHS = {
  seed: 'autenticacion/api/autenticacion/semilla',
  validateSeed: 'autenticacion/api/autenticacion/validarsemilla',
  reception: 'recepcion/api/facturaselectronicas',
  result: 'consultaresultado/api/consultas/estado',
  trackIds: 'consultatrackids/api/trackids/consulta',
  ecfStatus: 'consultaestado/api/consultas/estado',
  rfceReception: 'recepcionfc/api/recepcion/ecf',
  rfceStatus: 'consultarfce/api/consultas/consulta',
  annulment: 'anulacionrangos/api/operaciones/anularrango',
  commercialApproval: 'aprobacioncomercial/api/aprobacioncomercial',
  directoryListing: 'consultadirectorio/api/consultas/listado',
  directoryByRnc: 'consultadirectorio/api/consultas/obtenerdirectorioporrnc',
} as const;

/** Paths below the status host (no environment segment, API key instead of token). */
export const STATUS_PATHS = {
  services: 'api/estatusservicios/obtenerestatus',
  maintenanceWindows: 'api/estatusservicios/obtenerventanasmantenimiento',
  environment: 'api/estatusservicios/verificarestado',
} as const;

/** Joins a base URL (with or without trailing slash, possibly with a path) and a relative path. */
export function joinUrl(base: string, ...segments: string[]): URL {
  const trimmed = base.replace(/\/+$/, '');
  return new URL(`${trimmed}/${segments.map((segment) => segment.replace(/^\/+|\/+$/g, '')).join('/')}`);
}
