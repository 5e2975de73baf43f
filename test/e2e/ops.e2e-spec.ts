import { randomBytes } from 'node:crypto';
import { startTestApp, type TestApp } from '../support/app';
import { newUser } from '../support/factories';

describe('operations: /health, /metrics, request ids', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t?.close());

  it('GET /health is public and reports the database and Redis', async () => {
    const res = await t.http().get('/health').expect(200);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    expect(res.body).toEqual({ status: 'ok', database: 'ok', redis: 'ok' });
  });

  it('GET /health ignores garbage credentials (public route)', async () => {
    await t.http().get('/health').set('authorization', 'Bearer garbage').expect(200);
    await t.http().get('/health').set('cookie', 'sid=nope').expect(200);
  });

  it('GET /metrics without METRICS_TOKEN (outside production) is public Prometheus text that counts requests by method, route and status', async () => {
    await t.http().get('/health').expect(200);
    await t.http().get('/api/auth/me').expect(401);
    const res = await t.http().get('/metrics').expect(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    const text = res.text;
    expect(text).toMatch(/^# HELP http_requests_total /m);
    expect(text).toMatch(/^# TYPE http_requests_total counter$/m);
    expect(text).toMatch(/^http_requests_total\{[^}]*method="GET"[^}]*route="\/health"[^}]*status="200"[^}]*\} [1-9]\d*$/m);
    expect(text).toMatch(/^http_requests_total\{[^}]*route="\/api\/auth\/me"[^}]*status="401"[^}]*\} [1-9]\d*$/m);
    expect(text).toMatch(/^http_request_duration_seconds_bucket\{/m);
    expect(text).toMatch(/^process_cpu_user_seconds_total /m); // default process metrics
  });

  it('the request counter grows with each request', async () => {
    const count = async () => {
      const text = (await t.http().get('/metrics').expect(200)).text;
      const line = text.split('\n').find((l) => /^http_requests_total\{/.test(l) && l.includes('route="/health"') && l.includes('status="200"'));
      return line ? Number(line.split(' ').pop()) : 0;
    };
    const before = await count();
    await t.http().get('/health').expect(200);
    await t.http().get('/health').expect(200);
    expect(await count()).toBe(before + 2);
  });

  it('every response carries an x-request-id (also errors and unknown routes), unique per request', async () => {
    const ids = new Set<string>();
    for (const [path, status] of [
      ['/health', 200],
      ['/metrics', 200],
      ['/api/auth/me', 401],
      ['/api/definitely/not/here', 404],
    ] as const) {
      const res = await t.http().get(path).expect(status);
      const id = res.headers['x-request-id'];
      expect(typeof id).toBe('string');
      expect(id).toMatch(/^[A-Za-z0-9._:-]{8,128}$/);
      ids.add(id);
    }
    const bad = await t.http().post('/api/auth/signup').set('content-type', 'application/json').send('{"email": ').expect(400);
    expect(bad.headers['x-request-id']).toEqual(expect.any(String));
    ids.add(bad.headers['x-request-id']);
    expect(ids.size).toBe(5);
  });

  it('a well-formed incoming X-Request-Id is echoed back; a malformed one is replaced', async () => {
    const mine = 'req-1234abcd.trace:9_x';
    const res = await t.http().get('/health').set('X-Request-Id', mine).expect(200);
    expect(res.headers['x-request-id']).toBe(mine);
    const err = await t.http().get('/api/auth/me').set('x-request-id', mine).expect(401);
    expect(err.headers['x-request-id']).toBe(mine);

    for (const malformed of ['short', 'has spaces in it', 'x'.repeat(129), 'semi;colon-123']) {
      const r = await t.http().get('/health').set('x-request-id', malformed).expect(200);
      expect(r.headers['x-request-id']).not.toBe(malformed);
      expect(r.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    }
  });
});

describe('operations: /metrics behind METRICS_TOKEN', () => {
  const token = `mt_${randomBytes(32).toString('base64url')}`;
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ METRICS_TOKEN: token });
  });
  afterAll(() => t?.close());
  const unauthorized = { error: 'Unauthorized', code: 'unauthorized' };

  it('no token: 401 in the error shape, no metrics', async () => {
    const res = await t.http().get('/metrics').expect(401);
    expect(res.body).toEqual(unauthorized);
    expect(res.text).not.toMatch(/http_requests_total/);
  });

  it('a wrong token (same length, other length, other scheme, a session cookie) is 401', async () => {
    const sameLength = `mt_${randomBytes(32).toString('base64url')}`;
    expect(sameLength.length).toBe(token.length);
    for (const authorization of [
      `Bearer ${sameLength}`,
      `Bearer ${token.slice(0, -1)}`,
      `Bearer ${token}x`,
      `Basic ${token}`,
      token,
      'Bearer ',
      `Bearer  ${token} extra`,
    ]) {
      const res = await t.http().get('/metrics').set('authorization', authorization).expect(401);
      expect(res.body).toEqual(unauthorized);
    }
    const u = await newUser(t, 'metrics');
    expect((await u.http.get('/metrics').expect(401)).body).toEqual(unauthorized); // a signed-in person is not a scraper
  });

  it('the right token: 200 Prometheus text (the scheme is case-insensitive)', async () => {
    for (const scheme of ['Bearer', 'bearer']) {
      const res = await t.http().get('/metrics').set('authorization', `${scheme} ${token}`).expect(200);
      expect(res.headers['content-type']).toMatch(/^text\/plain/);
      expect(res.text).toMatch(/^# TYPE http_requests_total counter$/m);
    }
  });

  it('/health stays public', async () => {
    await t.http().get('/health').expect(200);
  });
});

describe('operations: /metrics in production', () => {
  const secrets = { NODE_ENV: 'production', SESSION_SECRET: 's'.repeat(40), SERVICE_ENCRYPTION_KEY: 'k'.repeat(40) };

  it('without METRICS_TOKEN it is not served publicly: 404 like an unknown route', async () => {
    const t = await startTestApp(secrets);
    try {
      const res = await t.http().get('/metrics').expect(404);
      expect(res.body).toEqual({ error: 'Not found', code: 'not_found' });
      await t.http().get('/metrics').set('authorization', 'Bearer anything-at-all-anything-at-all').expect(404);
      await t.http().get('/health').expect(200);
    } finally {
      await t.close();
    }
  });

  it('with METRICS_TOKEN it is served to the token only', async () => {
    const token = randomBytes(32).toString('hex');
    const t = await startTestApp({ ...secrets, METRICS_TOKEN: token });
    try {
      await t.http().get('/metrics').expect(401);
      await t.http().get('/metrics').set('authorization', `Bearer ${token}`).expect(200);
    } finally {
      await t.close();
    }
  });
});
