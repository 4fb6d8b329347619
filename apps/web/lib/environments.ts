/**
 * The three tax-authority environments as the portal's URLs spell them (the same segment as the
 * REST API's paths: /TesteCF/..., /CerteCF/..., /eCF/...). Client-safe.
 */
export const ENVIRONMENTS = ['TesteCF', 'CerteCF', 'eCF'] as const;
export type TEnvironment = (typeof ENVIRONMENTS)[number];

export const DEFAULT_ENVIRONMENT: TEnvironment = 'TesteCF';

export const ENVIRONMENT_LABELS: Record<TEnvironment, string> = {
  TesteCF: 'TesteCF (pruebas)',
  CerteCF: 'CerteCF (certificación)',
  eCF: 'eCF (producción)',
};

/**
 * The cookie the proxy sets to the environment of the last environment-scoped page visited, so
 * links from tenant-wide pages (Members) to environment pages keep the environment. A preference,
 * not a permission: httpOnly, never trusted for access.
 */
export const ENVIRONMENT_COOKIE = 'ecf.environment';

export function isEnvironment(value: unknown): value is TEnvironment {
  return typeof value === 'string' && (ENVIRONMENTS as readonly string[]).includes(value);
}

/** The environment a path starts with (`/eCF/documents` → `eCF`), if any. */
export function environmentOfPath(pathname: string): TEnvironment | null {
  const first = pathname.split('/')[1];
  return isEnvironment(first) ? first : null;
}

/** The same page in another environment: `/TesteCF/documents?x` → `/eCF/documents`; null when the path has none. */
export function switchEnvironmentPath(pathname: string, environment: TEnvironment): string | null {
  const segments = pathname.split('/');
  if (!isEnvironment(segments[1])) return null;
  // A page of one document belongs to its environment: switching goes to the list.
  const kept = segments.slice(2, 3);
  return `/${[environment, ...kept].join('/')}`;
}
