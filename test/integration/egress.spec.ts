import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BLOCKED_PORTS, checkDestinationUrl, isPublicAddress, portProblem } from '../../src/common/egress/destination';
import { EgressClient, type Resolver } from '../../src/common/egress/egress-client';
import { EgressError } from '../../src/common/egress/egress-error';

type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;
const listen = async (server: http.Server | https.Server): Promise<number> => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return (server.address() as AddressInfo).port;
};
const codeOf = async (p: Promise<unknown>): Promise<string> => {
  const e = await p.then(
    () => null,
    (err) => err,
  );
  expect(e).toBeInstanceOf(EgressError);
  return (e as EgressError).code;
};

describe('destination URL rules (static check)', () => {
  const rejected = [
    'http://hooks.example.com/x',
    'https://127.0.0.1/x',
    'https://127.1/x',
    'https://0x7f.1/x',
    'https://0177.0.0.1/x',
    'https://2130706433/x',
    'https://[::1]/x',
    'https://[::ffff:127.0.0.1]/x',
    'https://[::ffff:7f00:1]/x',
    'https://10.0.0.5/x',
    'https://8.8.8.8/x',
    'https://[2606:4700::1]/x',
    'https://localhost/x',
    'https://api.localhost/x',
    'https://printer.local/x',
    'https://db.internal/x',
    'https://intranet/x',
    'https://user:pw@hooks.example.com/x',
    'https://token@hooks.example.com/x',
    'ftp://hooks.example.com/x',
    'javascript:alert(1)',
    'not a url',
    'https://',
    '',
    'https://0/x',
    'https://0x0a000005/x',
    // not DNS hostnames: empty labels (which also slipped `localhost`/`.local` past the name rules), over-long labels and names
    'https://localhost../x',
    'https://printer.local../x',
    'https://a.localhost../x',
    'https://a..example.com/x',
    'https://.example.com/x',
    `https://${'a'.repeat(64)}.example.com/x`,
    `https://${'a.'.repeat(126)}com/x`,
  ];
  it.each(rejected)('rejects %s', (url) => {
    expect(() => checkDestinationUrl(url)).toThrow(EgressError);
    try {
      checkDestinationUrl(url);
    } catch (e) {
      expect((e as EgressError).code).toBe('invalid_url');
    }
  });
  it('rejects non-strings', () => {
    for (const v of [123, null, undefined, {}, ['https://a.example.com']]) expect(() => checkDestinationUrl(v)).toThrow(EgressError);
  });
  it('accepts HTTPS DNS hostnames', () => {
    expect(checkDestinationUrl('https://hooks.example.com/in?x=1').hostname).toBe('hooks.example.com');
    expect(checkDestinationUrl('https://hooks.example.com:8443/in').port).toBe('8443');
    expect(checkDestinationUrl('https://hooks.example.com./in').hostname).toBe('hooks.example.com.');
    expect(checkDestinationUrl(`https://${'a'.repeat(63)}.example.com/x`).hostname).toHaveLength(75);
  });
  it('loopback setting accepts only loopback hosts, over http or https', () => {
    for (const u of ['http://127.0.0.1:9999/x', 'http://localhost:9999/x', 'https://localhost:9999/x', 'http://[::1]:9999/x']) {
      expect(() => checkDestinationUrl(u)).toThrow(EgressError);
      expect(checkDestinationUrl(u, { allowLoopback: true })).toBeInstanceOf(URL);
    }
    for (const u of [
      'http://10.0.0.5/x',
      'http://hooks.example.com/x',
      'https://127.0.0.2/x',
      'http://[::ffff:7f00:1]:9999/x',
      'https://printer.local/x',
      'http://0x7f000002:9999/x',
    ]) {
      expect(() => checkDestinationUrl(u, { allowLoopback: true })).toThrow(EgressError);
    }
  });
});

describe('destination ports', () => {
  it('80, 443 and 1024..65535 are allowed, except the ports of well-known internal services; explicit or default', () => {
    for (const u of ['https://hooks.example.com/x', 'https://hooks.example.com:443/x', 'http://127.0.0.1:80/x', 'https://hooks.example.com:8080/x']) {
      expect(checkDestinationUrl(u, { allowLoopback: true })).toBeInstanceOf(URL);
    }
    for (const port of [1024, 3000, 8443, 9000, 32768, 65535]) expect(portProblem(port)).toBeNull();
    for (const port of [0, 1, 21, 22, 25, 79, 81, 442, 444, 1023]) expect(portProblem(port)).toMatch(/not allowed/);
    for (const port of [2375, 2376, 2379, 2380, 3306, 5432, 5984, 6379, 6443, 8500, 9200, 9300, 10250, 11211, 15672, 27017]) {
      expect(portProblem(port)).toMatch(/internal service/);
    }
  });

  it('a blocked port is refused by the static check (creation and before every request), for loopback destinations too', () => {
    for (const u of [
      'https://hooks.example.com:22/x',
      'https://hooks.example.com:6379/x',
      'https://hooks.example.com:0/x',
      'http://127.0.0.1:5432/x',
      'http://localhost:6379/x',
    ]) {
      try {
        checkDestinationUrl(u, { allowLoopback: true });
        throw new Error(`accepted ${u}`);
      } catch (e) {
        expect([u, (e as EgressError).code, (e as EgressError).message]).toEqual([u, 'invalid_url', expect.stringMatching(/^URL port \d+ /)]);
      }
    }
  });

  it('no blocked port lies in an ephemeral range (listen(0) receivers of tests are never refused)', () => {
    for (const port of BLOCKED_PORTS.keys()) expect([port, port < 32768 && port >= 1024]).toEqual([port, true]);
  });

  it('the client refuses a request to a blocked port before resolving or connecting', async () => {
    const calls: string[] = [];
    const c = EgressClient.create({ allowLoopback: true, resolver: async (h) => (calls.push(h), [{ address: '93.184.216.34', family: 4 }]) });
    for (const url of ['https://hooks.example.com:6379/x', 'http://127.0.0.1:6379/x', 'https://hooks.example.com:22/x']) {
      const e = await c.request({ url, method: 'POST', body: 'x' }).catch((x: unknown) => x);
      expect([url, (e as EgressError).code]).toEqual([url, 'invalid_url']);
    }
    expect(calls).toEqual([]);
    c.close();
  });
});

describe('address classification', () => {
  const blocked = [
    '127.0.0.1',
    '10.1.2.3',
    '172.16.0.1',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '255.255.255.255',
    '224.0.0.1',
    '192.0.2.1',
    '198.51.100.7',
    '203.0.113.9',
    '198.18.0.1',
    '240.0.0.1',
    '192.0.0.8',
    '::',
    '::1',
    'fe80::1',
    'fc00::1',
    'fd12::1',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
    '::127.0.0.1',
    '64:ff9b::a00:1',
    '2001:db8::1',
    '2002:a00:1::',
    '3fff::1',
    'not-an-ip',
  ];
  it.each(blocked)('refuses %s', (a) => expect(isPublicAddress(a)).toBe(false));
  it.each(['8.8.8.8', '1.1.1.1', '93.184.216.34', '2606:4700:4700::1111', '::ffff:8.8.8.8'])('allows %s', (a) => expect(isPublicAddress(a)).toBe(true));
});

describe('EgressClient against real local servers', () => {
  const servers: Array<http.Server | https.Server> = [];
  const hits: string[] = [];
  const client = EgressClient.create({ allowLoopback: true });
  let port = 0;
  const routes: Record<string, Handler> = {
    '/ok': (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c) => chunks.push(c));
      req.on('end', () =>
        res
          .writeHead(200, { 'content-type': 'application/json', 'x-host': String(req.headers.host) })
          .end(JSON.stringify({ got: Buffer.concat(chunks).toString() })),
      );
    },
    '/fail': (_req, res) => res.writeHead(503).end('RECEIVER SECRET BODY'),
    '/redirect': (_req, res) => res.writeHead(302, { location: `http://127.0.0.1:${port}/internal` }).end(),
    '/internal': (_req, res) => res.writeHead(200).end('internal'),
    '/slow': (_req, res) => setTimeout(() => res.writeHead(200).end('late'), 2000),
    '/big': (_req, res) => res.writeHead(200).end(Buffer.alloc(64 * 1024, 97)),
    '/big-chunked': (_req, res) => {
      res.writeHead(200);
      for (let i = 0; i < 64; i++) res.write(Buffer.alloc(1024, 97));
      res.end();
    },
  };
  beforeAll(async () => {
    const server = http.createServer((req, res) => {
      hits.push(req.url ?? '');
      (routes[new URL(req.url ?? '/', 'http://x').pathname] ?? ((_q, s) => s.writeHead(404).end()))(req, res);
    });
    servers.push(server);
    port = await listen(server);
  });
  afterAll(() => {
    client.close();
    for (const s of servers) {
      s.closeAllConnections?.();
      s.close();
    }
  });

  it('POSTs the body and returns status, headers, body, duration and the connected address', async () => {
    const res = await client.request({ url: `http://127.0.0.1:${port}/ok`, method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":1}' });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body.toString())).toEqual({ got: '{"a":1}' });
    expect(res.remoteAddress).toMatch(/127\.0\.0\.1/);
    expect(res.durationMs).toBeGreaterThanOrEqual(0);
  });

  it('returns 5xx responses as a status (the caller decides), never as an error', async () => {
    const res = await client.request({ url: `http://127.0.0.1:${port}/fail`, method: 'POST', body: 'x' });
    expect(res.status).toBe(503);
  });

  it('refuses loopback unless the request or the client allows it', async () => {
    const strict = EgressClient.create();
    expect(await codeOf(strict.request({ url: `http://127.0.0.1:${port}/ok`, method: 'GET' }))).toBe('invalid_url');
    expect(await codeOf(client.request({ url: `http://127.0.0.1:${port}/ok`, method: 'GET', allowLoopback: false }))).toBe('invalid_url');
    strict.close();
  });

  it('never follows redirects: a 3xx is a `redirect` failure and the target is not contacted', async () => {
    hits.length = 0;
    const e = await client.request({ url: `http://127.0.0.1:${port}/redirect`, method: 'POST', body: 'x' }).catch((x) => x);
    expect(e).toBeInstanceOf(EgressError);
    expect(e).toMatchObject({ code: 'redirect', status: 302 });
    expect(hits).toEqual(['/redirect']);
  });

  it('enforces the total time limit (`timeout`)', async () => {
    expect(await codeOf(client.request({ url: `http://127.0.0.1:${port}/slow`, method: 'GET', timeoutMs: 150 }))).toBe('timeout');
  });

  it('caps the response size (`too_large`), declared or streamed', async () => {
    expect(await codeOf(client.request({ url: `http://127.0.0.1:${port}/big`, method: 'GET', maxResponseBytes: 1000 }))).toBe('too_large');
    expect(await codeOf(client.request({ url: `http://127.0.0.1:${port}/big-chunked`, method: 'GET', maxResponseBytes: 1000 }))).toBe('too_large');
    const ok = await client.request({ url: `http://127.0.0.1:${port}/big`, method: 'GET', maxResponseBytes: 1024 * 1024 });
    expect(ok.body.length).toBe(64 * 1024);
  });

  it('reports a closed port as `network_error` without details of the receiver', async () => {
    const s = http.createServer();
    const closedPort = await listen(s);
    await new Promise((r) => s.close(r));
    expect(await codeOf(client.request({ url: `http://127.0.0.1:${closedPort}/x`, method: 'POST', body: 'x' }))).toBe('network_error');
  });

  describe('DNS: resolved by the client, every address checked, the checked one pinned', () => {
    const fake =
      (map: Record<string, string[]>, calls: string[] = []): Resolver =>
      async (host) => {
        calls.push(host);
        const a = map[host];
        if (!a) throw new Error('ENOTFOUND');
        return a.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
      };
    it.each([
      ['a private address', ['10.0.0.5']],
      ['the metadata address', ['169.254.169.254']],
      ['loopback (loopback setting on, but a public hostname)', ['127.0.0.1']],
      ['an IPv4-mapped loopback', ['::ffff:127.0.0.1']],
      ['a unique-local IPv6', ['fd00::1']],
      ['a CGNAT address', ['100.64.1.1']],
      ['one public and one private address', ['93.184.216.34', '192.168.0.10']],
    ])('refuses a hostname resolving to %s (`blocked_address`)', async (_name, addrs) => {
      const c = EgressClient.create({ allowLoopback: true, resolver: fake({ 'hooks.example.com': addrs }) });
      expect(await codeOf(c.request({ url: 'https://hooks.example.com/in', method: 'POST', body: '{}' }))).toBe('blocked_address');
      c.close();
    });
    it('fails with `dns_failure` when nothing resolves', async () => {
      const c = EgressClient.create({ resolver: fake({}) });
      expect(await codeOf(c.request({ url: 'https://nowhere.example.com/in', method: 'POST' }))).toBe('dns_failure');
      c.close();
    });
    it('resolves once and connects to the checked address, keeping the hostname in Host', async () => {
      const calls: string[] = [];
      const c = EgressClient.create({ allowLoopback: true, resolver: fake({ localhost: ['127.0.0.1'] }, calls) });
      const res = await c.request({ url: `http://localhost:${port}/ok`, method: 'POST', body: 'pinned' });
      expect(res.status).toBe(200);
      expect(res.headers['x-host']).toBe(`localhost:${port}`);
      expect(res.remoteAddress).toMatch(/127\.0\.0\.1/);
      expect(calls).toEqual(['localhost']);
      c.close();
    });
  });

  describe('connection reuse (keep-alive) never crosses checked addresses or hosts', () => {
    // two servers on the same port, one on 127.0.0.1 and one on 127.0.0.2 (both loopback on Linux)
    const conns: Record<string, number> = { a: 0, b: 0 };
    const pair: http.Server[] = [];
    let samePort = 0;
    beforeAll(async () => {
      const mk = (name: string) => {
        const s = http.createServer((req, res) => res.writeHead(200, { 'x-server': name }).end(`${name} ${req.headers.host}`));
        s.on('connection', () => conns[name]++);
        pair.push(s);
        return s;
      };
      const a = mk('a');
      await new Promise<void>((r) => a.listen(0, '127.0.0.1', () => r()));
      samePort = (a.address() as AddressInfo).port;
      const b = mk('b');
      await new Promise<void>((r, j) => b.once('error', j).listen(samePort, '127.0.0.2', () => r()));
    });
    afterAll(() => {
      for (const s of pair) {
        s.closeAllConnections();
        s.close();
      }
    });
    const answers = (addrs: string[][]): Resolver => {
      let i = 0;
      return async () => addrs[Math.min(i++, addrs.length - 1)].map((address) => ({ address, family: 4 as const }));
    };

    it('reuses a connection for the same host, port and checked address', async () => {
      conns.a = 0;
      const c = EgressClient.create({ allowLoopback: true, resolver: answers([['127.0.0.1']]) });
      for (let i = 0; i < 3; i++) expect((await c.request({ url: `http://localhost:${samePort}/x`, method: 'POST', body: 'x' })).headers['x-server']).toBe('a');
      expect(conns.a).toBe(1);
      c.close();
    });

    it('a hostname that now resolves to another allowed address gets a new connection to that address', async () => {
      conns.a = 0;
      conns.b = 0;
      const calls: string[] = [];
      const c = EgressClient.create({
        allowLoopback: true,
        resolver: async (h) => (calls.push(h), [{ address: calls.length === 1 ? '127.0.0.1' : '127.0.0.2', family: 4 }]),
      });
      const first = await c.request({ url: `http://localhost:${samePort}/x`, method: 'GET' });
      expect(first.headers['x-server']).toBe('a');
      const second = await c.request({ url: `http://localhost:${samePort}/x`, method: 'GET' });
      expect(second.headers['x-server']).toBe('b');
      expect(second.remoteAddress).toBe('127.0.0.2');
      expect(calls).toEqual(['localhost', 'localhost']); // the DNS check runs for every request
      expect(conns).toEqual({ a: 1, b: 1 });
      c.close();
    });

    it('a DNS change to a blocked address is refused even while a pooled socket to the old address is open', async () => {
      conns.a = 0;
      const c = EgressClient.create({ allowLoopback: true, resolver: answers([['127.0.0.1'], ['10.0.0.5'], ['127.0.0.1', '169.254.169.254']]) });
      expect((await c.request({ url: `http://localhost:${samePort}/x`, method: 'POST', body: 'x' })).status).toBe(200);
      expect(await codeOf(c.request({ url: `http://localhost:${samePort}/x`, method: 'POST', body: 'x' }))).toBe('blocked_address');
      expect(await codeOf(c.request({ url: `http://localhost:${samePort}/x`, method: 'POST', body: 'x' }))).toBe('blocked_address');
      expect(conns.a).toBe(1);
      c.close();
    });

    it('another host name never shares a connection, even to the same address and port', async () => {
      conns.a = 0;
      const c = EgressClient.create({ allowLoopback: true, resolver: answers([['127.0.0.1']]) });
      const viaName = await c.request({ url: `http://localhost:${samePort}/x`, method: 'GET' });
      const viaLiteral = await c.request({ url: `http://127.0.0.1:${samePort}/x`, method: 'GET' });
      expect(viaName.body.toString()).toBe(`a localhost:${samePort}`);
      expect(viaLiteral.body.toString()).toBe(`a 127.0.0.1:${samePort}`);
      expect(conns.a).toBe(2);
      c.close();
    });
  });

  describe('HTTPS with a self-signed certificate for localhost', () => {
    let dir = '';
    let httpsPort = 0;
    let cert = '';
    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'egress-tls-'));
      execFileSync(
        'openssl',
        [
          'req',
          '-x509',
          '-newkey',
          'rsa:2048',
          '-nodes',
          '-keyout',
          join(dir, 'key.pem'),
          '-out',
          join(dir, 'cert.pem'),
          '-days',
          '1',
          '-subj',
          '/CN=localhost',
          '-addext',
          'subjectAltName=DNS:localhost',
        ],
        { stdio: 'ignore' },
      );
      cert = readFileSync(join(dir, 'cert.pem'), 'utf8');
      const server = https.createServer({ key: readFileSync(join(dir, 'key.pem')), cert }, (req, res) => res.writeHead(200).end(`tls ${req.headers.host}`));
      servers.push(server);
      httpsPort = await listen(server);
    });
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it('verifies the certificate against the hostname (SNI kept while the address is pinned)', async () => {
      const c = EgressClient.create({ allowLoopback: true, ca: cert, resolver: async () => [{ address: '127.0.0.1', family: 4 }] });
      const res = await c.request({ url: `https://localhost:${httpsPort}/x`, method: 'GET' });
      expect(res.status).toBe(200);
      expect(res.body.toString()).toBe(`tls localhost:${httpsPort}`);
      // same server, same certificate, but the URL names another host: verification fails
      expect(await codeOf(c.request({ url: `https://127.0.0.1:${httpsPort}/x`, method: 'GET' }))).toBe('network_error');
      c.close();
    });
    it('refuses an untrusted certificate', async () => {
      const c = EgressClient.create({ allowLoopback: true, resolver: async () => [{ address: '127.0.0.1', family: 4 }] });
      expect(await codeOf(c.request({ url: `https://localhost:${httpsPort}/x`, method: 'GET' }))).toBe('network_error');
      c.close();
    });
  });
});
