import ipaddr from 'ipaddr.js';
import { EgressError } from './egress-error';

/**
 * Where outbound requests may go. Two checks share these rules:
 * - `checkDestinationUrl` (static, at creation and again before every request): HTTPS DNS
 *   hostnames only (labels of 1..63 characters, at most 253 in all); IP literals in every notation, `localhost`, `*.localhost`, `.local`,
 *   `.internal`, `.home.arpa` and single-label hosts are refused; no credentials in the URL.
 * - `isPublicAddress` (after our own DNS resolution): only globally routable unicast addresses.
 *
 * With `allowLoopback` (SERVICE_ALLOW_LOOPBACK_WEBHOOKS, never in production) exactly one thing is
 * loosened: `http(s)://127.0.0.1:<port>`, `http(s)://[::1]:<port>` and `http(s)://localhost:<port>`
 * are accepted and may connect to loopback addresses. Nothing else changes.
 */

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);
const BLOCKED_SUFFIXES = ['.localhost', '.local', '.internal', '.home.arpa'];

/** The URL's hostname without the brackets of an IPv6 literal and without a trailing dot. */
const bareHost = (u: URL): string =>
  u.hostname
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '')
    .toLowerCase();

/**
 * True when `host` is an IP literal in any notation. The URL parser already turns 127.1, 0x7f.1,
 * 0177.0.0.1 and 2130706433 into 127.0.0.1 (and rejects malformed numeric hosts); ipaddr.js
 * accepts those raw forms too, for hosts that did not go through it.
 */
export const isIpLiteral = (host: string): boolean => ipaddr.isValid(host);

/** Whether `allowLoopback` lets this URL through (loopback literal or `localhost` host). */
export const isLoopbackUrl = (u: URL): boolean => LOOPBACK_HOSTS.has(u.hostname.toLowerCase());

export interface DestinationCheckOptions {
  allowLoopback?: boolean;
}

/** Parses and checks a destination URL; returns the URL or throws EgressError `invalid_url`. */
export function checkDestinationUrl(raw: unknown, opts: DestinationCheckOptions = {}): URL {
  if (typeof raw !== 'string' || raw.trim() === '' || raw.length > 2048)
    throw new EgressError('invalid_url', 'URL must be an absolute https URL of at most 2048 characters');
  let u: URL;
  try {
    u = new URL(raw.trim());
  } catch {
    throw new EgressError('invalid_url', 'URL is not a valid absolute URL');
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') throw new EgressError('invalid_url', 'URL must use https');
  if (u.username || u.password) throw new EgressError('invalid_url', 'URL must not contain credentials');
  if (!u.hostname) throw new EgressError('invalid_url', 'URL must have a host');
  if (opts.allowLoopback && isLoopbackUrl(u)) return u;
  if (u.protocol !== 'https:') throw new EgressError('invalid_url', 'URL must use https');
  const host = bareHost(u);
  if (u.hostname.startsWith('[') || isIpLiteral(host)) throw new EgressError('invalid_url', 'URL host must be a DNS hostname, not an IP address');
  if (host.length > 253 || host.split('.').some((l) => l.length < 1 || l.length > 63))
    throw new EgressError('invalid_url', 'URL host must be a valid DNS hostname');
  if (host === 'localhost' || BLOCKED_SUFFIXES.some((s) => host.endsWith(s))) throw new EgressError('invalid_url', 'URL host must be a public DNS hostname');
  if (!host.includes('.')) throw new EgressError('invalid_url', 'URL host must be a fully qualified DNS hostname');
  return u;
}

/** Only globally routable unicast addresses (IPv4-mapped/-compatible/-translated forms are judged as refused). */
export function isPublicAddress(address: string): boolean {
  let ip: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    ip = ipaddr.parse(address);
  } catch {
    return false;
  }
  if (ip.kind() === 'ipv6') {
    const v6 = ip as ipaddr.IPv6;
    if (v6.isIPv4MappedAddress()) return isPublicAddress(v6.toIPv4Address().toString());
    // ::/96 (deprecated IPv4-compatible) is "unicast" to ipaddr.js but must not reach 127.0.0.1 or 10/8
    if (v6.parts.slice(0, 6).every((p) => p === 0)) return false;
  }
  return ip.range() === 'unicast';
}

/** Loopback (127/8, ::1, ::ffff:127.0.0.0/104). */
export function isLoopbackAddress(address: string): boolean {
  try {
    const ip = ipaddr.process(address);
    return ip.range() === 'loopback';
  } catch {
    return false;
  }
}
