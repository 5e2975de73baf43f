import ipaddr from 'ipaddr.js';
import { EgressError } from './egress-error';

/**
 * Where outbound requests may go. Two checks share these rules:
 * - `checkDestinationUrl` (static, at creation and again before every request): HTTPS DNS
 *   hostnames only (labels of 1..63 characters, at most 253 in all); IP literals in every notation, `localhost`, `*.localhost`, `.local`,
 *   `.internal`, `.home.arpa` and single-label hosts are refused; no credentials in the URL; the
 *   port (explicit or the scheme's default) is 80, 443 or 1024..65535 except `BLOCKED_PORTS`.
 * - `isPublicAddress` (after our own DNS resolution): only globally routable unicast addresses.
 *
 * With `allowLoopback` (SERVICE_ALLOW_LOOPBACK_WEBHOOKS, never in production) exactly one thing is
 * loosened: `http(s)://127.0.0.1:<port>`, `http(s)://[::1]:<port>` and `http(s)://localhost:<port>`
 * are accepted and may connect to loopback addresses. Nothing else changes (the port rule applies
 * to them too: a loopback webhook cannot reach a local Redis or PostgreSQL).
 */

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);
const BLOCKED_SUFFIXES = ['.localhost', '.local', '.internal', '.home.arpa'];

/**
 * Ports of well-known internal services that a destination may never name, even on a public
 * address (an internal service exposed on a routable address, or a port forwarded by a proxy):
 * every one of them speaks a protocol where a POST of attacker-shaped text can do harm, or
 * serves an administrative HTTP API. All lie below 32768, so the ports the OS hands out to
 * `listen(0)` (Linux 32768..60999, macOS and Windows 49152..65535) are never blocked: local test
 * receivers keep working.
 */
export const BLOCKED_PORTS: ReadonlyMap<number, string> = new Map([
  [1080, 'SOCKS proxy'],
  [1433, 'Microsoft SQL Server'],
  [1521, 'Oracle database'],
  [2049, 'NFS'],
  [2181, 'ZooKeeper'],
  [2375, 'Docker API'],
  [2376, 'Docker API (TLS)'],
  [2377, 'Docker Swarm'],
  [2379, 'etcd client'],
  [2380, 'etcd peer'],
  [3306, 'MySQL / MariaDB'],
  [4369, 'Erlang port mapper (RabbitMQ, CouchDB)'],
  [5432, 'PostgreSQL'],
  [5672, 'AMQP (RabbitMQ)'],
  [5984, 'CouchDB'],
  [6379, 'Redis'],
  [6443, 'Kubernetes API server'],
  [7000, 'Cassandra inter-node'],
  [8200, 'HashiCorp Vault'],
  [8300, 'Consul server RPC'],
  [8301, 'Consul LAN gossip'],
  [8302, 'Consul WAN gossip'],
  [8500, 'Consul HTTP API'],
  [8600, 'Consul DNS'],
  [9042, 'Cassandra CQL'],
  [9092, 'Kafka'],
  [9200, 'Elasticsearch HTTP'],
  [9300, 'Elasticsearch transport'],
  [10250, 'kubelet API'],
  [10255, 'kubelet read-only API'],
  [11211, 'memcached'],
  [15672, 'RabbitMQ management'],
  [25672, 'RabbitMQ inter-node'],
  [27017, 'MongoDB'],
  [27018, 'MongoDB shard'],
  [27019, 'MongoDB config server'],
]);

/** Why a destination port is refused, or null when it is allowed (80, 443, 1024..65535 except BLOCKED_PORTS). */
export function portProblem(port: number): string | null {
  if (port === 80 || port === 443) return null;
  if (!Number.isInteger(port) || port < 1024 || port > 65535) return `URL port ${port} is not allowed (use 80, 443 or 1024..65535)`;
  const service = BLOCKED_PORTS.get(port);
  return service ? `URL port ${port} is reserved for an internal service (${service})` : null;
}

/** The port a request to `u` goes to: the explicit one or the scheme's default. */
export const effectivePort = (u: URL): number => (u.port ? Number(u.port) : u.protocol === 'https:' ? 443 : 80);

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
  const badPort = portProblem(effectivePort(u));
  if (badPort) throw new EgressError('invalid_url', badPort);
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
