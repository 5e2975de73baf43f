import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local HTTP server playing the Vercel REST API for the deployment tests (port 0, loopback):
 * `GET /v9/projects/{id}` and `GET /v13/deployments/{id}` with the response shapes of the real API
 * (ids as strings, `readyState`, `readySubstate`, `target`, `team`, `ownerId`…), bearer tokens
 * required (`Authorization: Bearer …`; tokens in `badTokens` are refused like Vercel refuses an
 * invalid token), unknown resources answered like Vercel (`{ error: { code: "not_found" } }`).
 * `mode` makes it misbehave: `error500`, `ratelimited` (429), `garbage` (not JSON), `wrongShape`
 * (JSON without ids), `timeout` (never answers), and `failFirst` n answers 500 before behaving.
 */
export interface FakeProject {
  id: string;
  name: string;
  accountId: string | null;
}
export interface FakeDeployment {
  id: string;
  projectId: string;
  teamId: string | null;
  target: 'production' | 'staging' | null;
  readyState: string;
  readySubstate?: 'STAGED' | 'PROMOTED';
  url: string;
}
export type FakeMode = 'normal' | 'error500' | 'ratelimited' | 'garbage' | 'wrongShape' | 'timeout';

export interface FakeVercel {
  url: string;
  projects: Map<string, FakeProject>;
  deployments: Map<string, FakeDeployment>;
  badTokens: Set<string>;
  mode: FakeMode;
  failFirst: number;
  requests: { method: string; path: string; authorization: string | undefined }[];
  close: () => Promise<void>;
}

export async function startFakeVercel(): Promise<FakeVercel> {
  const state: Omit<FakeVercel, 'url' | 'close'> = {
    projects: new Map(),
    deployments: new Map(),
    badTokens: new Set(),
    mode: 'normal',
    failFirst: 0,
    requests: [],
  };
  const send = (res: http.ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
    res.end(JSON.stringify(body));
  };
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake.local');
    state.requests.push({ method: req.method ?? 'GET', path: url.pathname, authorization: req.headers.authorization });
    req.resume();
    if (state.mode === 'timeout') return; // never answers (the client's timeout ends it)
    if (state.failFirst > 0) {
      state.failFirst--;
      return send(res, 500, { error: { code: 'internal_server_error', message: 'An unexpected internal error occurred' } });
    }
    if (state.mode === 'error500') return send(res, 500, { error: { code: 'internal_server_error', message: 'An unexpected internal error occurred' } });
    if (state.mode === 'ratelimited') {
      res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '0' });
      return res.end(JSON.stringify({ error: { code: 'rate_limited', message: 'Rate limit exceeded' } }));
    }
    if (state.mode === 'garbage') {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end('<html>definitely not json');
    }
    if (state.mode === 'wrongShape') return send(res, 200, { hello: 'world', id: 42 });
    const auth = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '');
    if (!auth || state.badTokens.has(auth[1])) return send(res, 403, { error: { code: 'forbidden', message: 'Not authorized', invalidToken: true } });
    const team = url.searchParams.get('teamId');
    const [, version, kind, id] = url.pathname.split('/');
    if (!/^v\d+$/.test(version ?? '') || !id) return send(res, 404, { error: { code: 'not_found', message: 'The requested route was not found' } });
    if (kind === 'projects') {
      const p = state.projects.get(id);
      if (!p || (team && p.accountId !== team)) return send(res, 404, { error: { code: 'not_found', message: 'Project not found' } });
      return send(res, 200, {
        id: p.id,
        name: p.name,
        accountId: p.accountId,
        framework: 'nextjs',
        createdAt: Date.now() - 86_400_000,
        updatedAt: Date.now(),
        targets: {},
        latestDeployments: [],
      });
    }
    if (kind === 'deployments') {
      const d = state.deployments.get(id);
      if (!d || (team && d.teamId !== team)) return send(res, 404, { error: { code: 'not_found', message: 'Deployment not found' } });
      return send(res, 200, {
        id: d.id,
        uid: d.id,
        name: 'app',
        url: d.url,
        projectId: d.projectId,
        ownerId: d.teamId,
        team: d.teamId ? { id: d.teamId, name: 'Team', slug: 'team' } : undefined,
        target: d.target,
        readyState: d.readyState,
        status: d.readyState,
        readySubstate: d.readySubstate ?? (d.target === 'production' ? 'PROMOTED' : 'STAGED'),
        type: 'LAMBDAS',
        version: 2,
        regions: ['iad1'],
        alias: [],
        aliasAssigned: true,
        createdAt: Date.now() - 120_000,
        buildingAt: Date.now() - 110_000,
        ready: Date.now() - 60_000,
        creator: { uid: 'user_fake', username: 'tester' },
        meta: {},
      });
    }
    return send(res, 404, { error: { code: 'not_found', message: 'The requested route was not found' } });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const fake = state as FakeVercel;
  fake.url = `http://127.0.0.1:${port}`;
  fake.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return fake;
}
