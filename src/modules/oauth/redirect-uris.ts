/**
 * Redirect URI rules (OAuth 2.1, RFC 8252): absolute, no fragment; `https`, or `http` only on a
 * loopback IP literal or `localhost`; or a private-use scheme with a dot (`com.example.app:/cb`).
 * Matching is exact string comparison, except that a loopback IP redirect may use any port
 * (RFC 8252 §7.3: native apps get an ephemeral port at run time).
 */
const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);
const LOOPBACK_IPS = new Set(['127.0.0.1', '[::1]']);

export function redirectUriProblem(raw: unknown): string | null {
  if (typeof raw !== 'string' || raw.length === 0 || raw.length > 2000) return 'must be a URL of at most 2000 characters';
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return 'must be an absolute URL';
  }
  if (u.hash || raw.includes('#')) return 'must not contain a fragment';
  if (u.protocol === 'https:') return u.hostname ? null : 'must name a host';
  if (u.protocol === 'http:') return LOOPBACK_HOSTS.has(u.hostname) ? null : 'may use http only on a loopback address (127.0.0.1, [::1], localhost)';
  if (/^[a-z][a-z0-9+.-]*\.[a-z0-9+.-]+:$/i.test(u.protocol)) return null;
  return 'must use https, loopback http or a private-use scheme (reverse domain name)';
}

export function redirectUriMatches(registered: readonly string[], given: string): boolean {
  if (registered.includes(given)) return true;
  let g: URL;
  try {
    g = new URL(given);
  } catch {
    return false;
  }
  if (g.protocol !== 'http:' || !LOOPBACK_IPS.has(g.hostname)) return false;
  return registered.some((r) => {
    try {
      const u = new URL(r);
      return u.protocol === 'http:' && u.hostname === g.hostname && u.pathname === g.pathname && u.search === g.search && !g.hash && !u.hash;
    } catch {
      return false;
    }
  });
}
