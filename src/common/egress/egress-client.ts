import { lookup as dnsLookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { performance } from 'node:perf_hooks';
import ipaddr from 'ipaddr.js';
import { Inject, Injectable, type OnApplicationShutdown, Optional } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../config/config';
import { checkDestinationUrl, isLoopbackAddress, isLoopbackUrl, isPublicAddress } from './destination';
import { EgressError } from './egress-error';

/**
 * SSRF-safe outbound HTTP client, shared by webhook delivery and KPI HTTP syncs.
 *
 *   const res = await egress.request({ url, method: 'POST', headers, body, timeoutMs?, maxResponseBytes?, allowLoopback? });
 *   // → { status, headers, body: Buffer, durationMs, remoteAddress }   (any status except 3xx)
 *   checkDestinationUrl(url, { allowLoopback })  // static check at creation: URL or EgressError('invalid_url')
 *
 * What a request does:
 * 1. the static URL rules of `checkDestinationUrl` (https DNS hostnames only, see destination.ts);
 * 2. resolves the hostname itself (all addresses) and refuses the request (`blocked_address`)
 *    when ANY of them is not a globally routable unicast address (private, loopback, link-local,
 *    CGNAT, documentation, benchmarking, multicast, reserved, unspecified, unique-local,
 *    IPv4-mapped/-compatible/-translated forms…); `dns_failure` when nothing resolves;
 * 3. connects to the checked address through a `lookup` that returns it (no second DNS query, so
 *    no rebinding gap); TLS still uses the hostname for SNI and certificate verification;
 *    kept-alive connections are reused only by requests with the same hostname, port, TLS
 *    servername/options AND the same freshly checked address (steps 1-2 run for every request);
 * 4. never follows redirects: any 3xx is `redirect`; one attempt; a total time limit covering DNS,
 *    connect, TLS and the body (`timeout`, default 30 s); the response body is capped
 *    (`too_large`, default 1 MiB); anything else on the wire is `network_error`.
 * Errors are `EgressError` with those stable codes and safe messages (never the response body).
 *
 * `allowLoopback` (default: SERVICE_ALLOW_LOOPBACK_WEBHOOKS, which production refuses) lets
 * `http(s)://127.0.0.1|[::1]|localhost:<port>` reach loopback addresses, and nothing else.
 */
export interface EgressRequest {
  url: string;
  method: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: Buffer | string;
  timeoutMs?: number;
  maxResponseBytes?: number;
  allowLoopback?: boolean;
}

export interface EgressResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  durationMs: number;
  remoteAddress: string;
}

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}
/** DNS resolution (injectable so tests can make a hostname resolve to a private address). */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export interface EgressClientOptions {
  /** Default for requests that do not say (from SERVICE_ALLOW_LOOPBACK_WEBHOOKS). */
  allowLoopback?: boolean;
  resolver?: Resolver;
  /** Extra trusted CA certificates (tests with a self-signed receiver). */
  ca?: string | Buffer;
  defaultTimeoutMs?: number;
  defaultMaxResponseBytes?: number;
}

export const EGRESS_DEFAULT_TIMEOUT_MS = 30_000;
export const EGRESS_DEFAULT_MAX_RESPONSE_BYTES = 1024 * 1024;
export const EGRESS_OPTIONS = Symbol('EGRESS_OPTIONS');

/** Request options of this client: the checked address the request must be sent to. */
type PinnedOptions = http.RequestOptions & { pinnedAddress?: string };

/**
 * Keep-alive pools keyed by the CHECKED address as well as Node's own key (host, port, and for
 * TLS the servername, CA and other TLS options): a kept-alive socket serves only requests whose
 * fresh DNS check chose the address it is connected to, for the same hostname and port. A
 * hostname that now resolves elsewhere gets a new connection; one that now resolves to a blocked
 * address is refused before any socket is chosen.
 */
class PinnedHttpAgent extends http.Agent {
  override getName(options?: PinnedOptions): string {
    return `${super.getName(options)}|pin=${options?.pinnedAddress ?? '-'}`;
  }
}
class PinnedHttpsAgent extends https.Agent {
  override getName(options?: PinnedOptions & https.RequestOptions): string {
    return `${super.getName(options)}|pin=${options?.pinnedAddress ?? '-'}`;
  }
}

/** The same address in a canonical form (IPv4-mapped IPv6 as IPv4). */
const canonical = (a: string | undefined): string | null => {
  try {
    return a ? ipaddr.process(a).toNormalizedString() : null;
  } catch {
    return null;
  }
};

const systemResolver: Resolver = async (hostname) => {
  const all = await dnsLookup(hostname, { all: true, verbatim: true });
  return all.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

@Injectable()
export class EgressClient implements OnApplicationShutdown {
  private readonly opts: EgressClientOptions;
  // keep-alive pools keyed by host, port, TLS servername AND the checked address (PinnedHttpAgent)
  private readonly httpAgent = new PinnedHttpAgent({ keepAlive: true, maxSockets: 64, keepAliveMsecs: 1000 });
  private readonly httpsAgent: https.Agent;

  constructor(@Optional() @Inject(APP_CONFIG) config?: AppConfig, @Optional() @Inject(EGRESS_OPTIONS) options?: EgressClientOptions) {
    this.opts = { allowLoopback: config?.allowLoopbackWebhooks ?? false, ...(options ?? {}) };
    this.httpsAgent = new PinnedHttpsAgent({ keepAlive: true, maxSockets: 64, keepAliveMsecs: 1000, ...(this.opts.ca ? { ca: this.opts.ca } : {}) });
  }

  /** A client with other options (tests: injected resolver, extra CA). */
  static create(options: EgressClientOptions = {}): EgressClient {
    return new EgressClient(undefined, options);
  }

  get loopbackAllowed(): boolean {
    return this.opts.allowLoopback === true;
  }

  /** The static creation-time check with this client's loopback default. */
  checkUrl(url: unknown, allowLoopback = this.loopbackAllowed): URL {
    return checkDestinationUrl(url, { allowLoopback });
  }

  /** Closes the kept-alive connections. */
  close(): void {
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
  }

  onApplicationShutdown(): void {
    this.close();
  }

  async request(req: EgressRequest): Promise<EgressResponse> {
    const started = performance.now();
    const timeoutMs = req.timeoutMs ?? this.opts.defaultTimeoutMs ?? EGRESS_DEFAULT_TIMEOUT_MS;
    const maxBytes = req.maxResponseBytes ?? this.opts.defaultMaxResponseBytes ?? EGRESS_DEFAULT_MAX_RESPONSE_BYTES;
    const allowLoopback = req.allowLoopback ?? this.loopbackAllowed;
    const url = checkDestinationUrl(req.url, { allowLoopback });
    const loopbackOk = allowLoopback && isLoopbackUrl(url);

    let timer: NodeJS.Timeout | undefined;
    let cancel: (e: EgressError) => void = () => undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const e = new EgressError('timeout', `No complete response within ${timeoutMs} ms`);
        cancel(e);
        reject(e);
      }, timeoutMs);
    });
    try {
      const target = await Promise.race([this.resolveChecked(url, loopbackOk), deadline]);
      return await Promise.race([this.send(url, target, req, maxBytes, started, (c) => (cancel = c)), deadline]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Resolves and checks every address; returns the one to connect to. */
  private async resolveChecked(url: URL, loopbackOk: boolean): Promise<ResolvedAddress> {
    const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
    let addrs: ResolvedAddress[];
    if (host === '127.0.0.1' || host === '::1') addrs = [{ address: host, family: host.includes(':') ? 6 : 4 }];
    else {
      try {
        addrs = await (this.opts.resolver ?? systemResolver)(host);
      } catch {
        throw new EgressError('dns_failure', `Could not resolve ${host}`);
      }
    }
    if (!addrs.length) throw new EgressError('dns_failure', `Could not resolve ${host}`);
    const allowed = (a: string) => isPublicAddress(a) || (loopbackOk && isLoopbackAddress(a));
    if (!addrs.every((a) => allowed(a.address))) throw new EgressError('blocked_address', `${host} resolves to a non-public address`);
    return addrs[0];
  }

  private send(
    url: URL,
    target: ResolvedAddress,
    req: EgressRequest,
    maxBytes: number,
    started: number,
    onCancel: (c: (e: EgressError) => void) => void,
  ): Promise<EgressResponse> {
    return new Promise<EgressResponse>((resolve, reject) => {
      const isHttps = url.protocol === 'https:';
      const body = req.body === undefined ? undefined : Buffer.isBuffer(req.body) ? req.body : Buffer.from(req.body, 'utf8');
      const lookup: LookupFunction = (_host, options, cb) => {
        if ((options as { all?: boolean }).all) (cb as unknown as (e: null, a: ResolvedAddress[]) => void)(null, [target]);
        else cb(null, target.address, target.family);
      };
      const headers: Record<string, string> = { 'user-agent': 'service-egress/1', ...(req.headers ?? {}) };
      if (body) headers['content-length'] = String(body.length);
      const options: PinnedOptions & https.RequestOptions = {
        protocol: url.protocol,
        hostname: url.hostname.replace(/^\[(.*)\]$/, '$1'),
        port: url.port || (isHttps ? 443 : 80),
        path: `${url.pathname}${url.search}`,
        method: req.method,
        headers,
        lookup,
        pinnedAddress: target.address,
        agent: isHttps ? this.httpsAgent : this.httpAgent,
        ...(isHttps ? { servername: url.hostname } : {}),
      };
      let settled = false;
      const fail = (e: EgressError) => {
        if (settled) return;
        settled = true;
        r.destroy();
        reject(e);
      };
      const r = (isHttps ? https : http).request(options, (res) => {
        const status = res.statusCode ?? 0;
        if (status >= 300 && status < 400) {
          res.resume();
          return fail(new EgressError('redirect', `Redirects are not followed (HTTP ${status})`, status));
        }
        const declared = Number(res.headers['content-length']);
        if (Number.isFinite(declared) && declared > maxBytes) return fail(new EgressError('too_large', `Response larger than ${maxBytes} bytes`, status));
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          size += c.length;
          if (size > maxBytes) return fail(new EgressError('too_large', `Response larger than ${maxBytes} bytes`, status));
          chunks.push(c);
        });
        res.on('error', () => fail(new EgressError('network_error', 'Connection failed while reading the response')));
        res.on('end', () => {
          if (settled) return;
          settled = true;
          resolve({
            status,
            headers: res.headers,
            body: Buffer.concat(chunks),
            durationMs: performance.now() - started,
            remoteAddress: res.socket?.remoteAddress ?? target.address,
          });
        });
      });
      onCancel(fail);
      // belt and braces: a kept-alive socket must be connected to the address checked for THIS request
      r.on('socket', (sock) => {
        if (r.reusedSocket && canonical(sock.remoteAddress) !== canonical(target.address)) {
          sock.destroy();
          fail(new EgressError('network_error', 'Connection failed (pooled connection to another address)'));
        }
      });
      r.on('error', (e: NodeJS.ErrnoException) => fail(new EgressError('network_error', `Connection failed (${e.code ?? 'error'})`)));
      r.end(body);
    });
  }
}
