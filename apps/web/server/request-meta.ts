/**
 * The client's address and user agent of a request, for the per-address sign-in limit, sessions and
 * the audit log. The address is the LAST entry of `X-Forwarded-For`: the one the nearest proxy
 * appended (Next.js itself sets the header from the socket only when the request has none). Run the
 * portal behind a reverse proxy that sets it; exposed directly, a client may choose its own
 * per-address bucket (the per-account lock still holds).
 */
export type TRequestMeta = { ip: string | null; userAgent: string | null };

type THeaderSource = { get(name: string): string | null } | Record<string, string | string[] | undefined>;

function header(headers: THeaderSource, name: string): string | null {
  if (typeof headers.get === 'function') return (headers as { get(name: string): string | null }).get(name);
  const value = (headers as Record<string, string | string[] | undefined>)[name];
  return Array.isArray(value) ? (value.at(-1) ?? null) : (value ?? null);
}

export function requestMetaOf(headers: THeaderSource): TRequestMeta {
  const forwarded = header(headers, 'x-forwarded-for');
  const last = forwarded
    ?.split(',')
    .map((part) => part.trim())
    .filter((part) => part.length > 0)
    .at(-1);
  const ip = last === undefined ? null : last.replace(/^::ffff:/, '').slice(0, 64);
  const userAgent = header(headers, 'user-agent');
  return { ip, userAgent: userAgent === null ? null : userAgent.slice(0, 512) };
}
