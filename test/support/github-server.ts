import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A real local HTTP server playing the GitHub REST API for tests (listens on 127.0.0.1, port 0),
 * answering with the shapes of the real API (numeric ids stay numeric). `fault` makes every
 * response (or those whose path contains `faultPath`) a 500, a non-JSON body or no answer at all.
 */
export interface FakePull {
  owner: string;
  repo: string;
  number: number;
  id: number;
  repoId: number;
  head: string;
  base?: string;
  baseRef?: string;
  state?: 'open' | 'closed';
  merged?: boolean;
  draft?: boolean;
  title?: string;
}

export interface GithubServer {
  url: string;
  pulls: Map<string, FakePull>;
  reviews: Map<string, unknown[]>;
  checkRuns: Map<string, unknown[]>;
  statuses: Map<string, unknown[]>;
  workflowRuns: Map<string, unknown[]>;
  classic: Map<string, Array<{ context: string; app_id: number | null }>>;
  rules: Map<string, Array<{ context: string; integration_id?: number }>>;
  tokens: Set<string>;
  fault: null | 'error500' | 'garbage' | 'hang' | 'rate_limit';
  faultPath: string | null;
  requests: Array<{ path: string; authorized: boolean }>;
  addPull(p: FakePull): void;
  close(): Promise<void>;
}

const key = (o: string, r: string) => `${o}/${r}`.toLowerCase();

export async function startGithubServer(): Promise<GithubServer> {
  const s: Omit<GithubServer, 'url' | 'close' | 'addPull'> = {
    pulls: new Map(),
    reviews: new Map(),
    checkRuns: new Map(),
    statuses: new Map(),
    workflowRuns: new Map(),
    classic: new Map(),
    rules: new Map(),
    tokens: new Set(),
    fault: null,
    faultPath: null,
    requests: [],
  };
  const hanging = new Set<http.ServerResponse>();
  const server = http.createServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://x');
    const auth = String(req.headers.authorization ?? '');
    s.requests.push({ path: u.pathname, authorized: auth !== '' });
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (s.fault && (!s.faultPath || u.pathname.includes(s.faultPath))) {
      if (s.fault === 'hang') return void hanging.add(res);
      if (s.fault === 'garbage') {
        res.writeHead(200, { 'content-type': 'application/json' });
        return void res.end('<html>not json');
      }
      if (s.fault === 'rate_limit') {
        res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '0' });
        return void res.end(JSON.stringify({ message: 'API rate limit exceeded' }));
      }
      return send(500, { message: 'Server Error' });
    }
    const nf = () => send(404, { message: 'Not Found', documentation_url: 'https://docs.github.com/rest' });
    const token = auth.replace(/^(bearer|token)\s+/i, '');
    if (auth && !s.tokens.has(token)) return send(401, { message: 'Bad credentials' });
    const parts = u.pathname.split('/').filter(Boolean).map(decodeURIComponent);
    if (parts[0] === 'user' && parts.length === 1)
      return auth ? send(200, { login: 'octo-bot', id: 4242, type: 'User' }) : send(401, { message: 'Requires authentication' });
    if (parts[0] !== 'repos') return nf();
    const [, owner, repo, kind, ...rest] = parts;
    const k = key(owner, repo);
    if (kind === 'pulls' && rest.length >= 1) {
      const p = s.pulls.get(`${k}#${rest[0]}`);
      if (!p) return nf();
      if (rest.length === 1) {
        const full = `${p.owner}/${p.repo}`;
        return send(200, {
          id: p.id,
          number: p.number,
          state: p.state ?? 'open',
          draft: p.draft ?? false,
          merged: p.merged ?? false,
          merged_at: p.merged ? new Date().toISOString() : null,
          title: p.title ?? `PR ${p.number}`,
          html_url: `https://github.com/${full}/pull/${p.number}`,
          head: { sha: p.head, ref: 'feature', repo: { id: p.repoId, full_name: full } },
          base: { sha: p.base ?? '0'.repeat(40), ref: p.baseRef ?? 'main', repo: { id: p.repoId, full_name: full } },
        });
      }
      if (rest[1] === 'reviews') return send(200, s.reviews.get(`${k}#${rest[0]}`) ?? []);
      return nf();
    }
    if (kind === 'commits' && rest[1] === 'check-runs') {
      const runs = s.checkRuns.get(`${k}@${rest[0]}`) ?? [];
      return send(200, { total_count: runs.length, check_runs: runs });
    }
    if (kind === 'commits' && rest[1] === 'statuses') return send(200, s.statuses.get(`${k}@${rest[0]}`) ?? []);
    if (kind === 'actions' && rest[0] === 'runs') {
      const runs = (s.workflowRuns.get(k) ?? []).filter((w: any) => !u.searchParams.get('head_sha') || w.head_sha === u.searchParams.get('head_sha'));
      return send(200, { total_count: runs.length, workflow_runs: runs });
    }
    if (kind === 'branches' && rest[1] === 'protection' && rest[2] === 'required_status_checks') {
      const c = s.classic.get(`${k}:${rest[0]}`);
      if (!c) return send(404, { message: 'Branch not protected' });
      return send(200, { strict: false, contexts: c.map((x) => x.context), checks: c });
    }
    if (kind === 'rules' && rest[0] === 'branches') {
      const r = s.rules.get(`${k}:${rest[1]}`) ?? [];
      return send(200, r.length ? [{ type: 'required_status_checks', ruleset_id: 1, parameters: { required_status_checks: r } }] : []);
    }
    return nf();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(s, {
    url: `http://127.0.0.1:${port}`,
    addPull(p: FakePull) {
      s.pulls.set(`${key(p.owner, p.repo)}#${p.number}`, p);
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const r of hanging) r.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}
