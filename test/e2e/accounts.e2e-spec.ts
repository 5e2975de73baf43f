import { randomBytes } from 'node:crypto';
import { SessionsRepository } from '../../src/modules/accounts/accounts.repository';
import { PurgeSessionsProcessor } from '../../src/modules/maintenance/purge-sessions.processor';
import { newUser, uniq } from '../support/factories';
import { reservedPort } from '../support/ports';
import { startTestApp, type TestApp } from '../support/app';
import { withoutDetails } from '../support/errors';

describe('accounts: signup, login, logout, me', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('signup returns 201 { user } and an httpOnly SameSite=Lax session cookie holding only an opaque id', async () => {
    const email = `${uniq('s')}@example.com`;
    const res = await t.http().post('/api/auth/signup').send({ email, password: 'correct-horse-1', display_name: 'Sig' }).expect(201);
    expect(res.body.user).toMatchObject({ email, display_name: 'Sig' });
    expect(res.body.user.password_hash).toBeUndefined();
    const cookie = String(res.headers['set-cookie']);
    expect(cookie).toMatch(/^sid=[A-Za-z0-9_-]{43};/);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).not.toMatch(/Secure/); // only in production
    const rows = await t.db.query('SELECT password_hash FROM users WHERE id = $1', [res.body.user.id]);
    expect(rows[0].password_hash).toMatch(/^\$argon2id\$/);
  });

  it('the hourly purge deletes expired sessions, in bounded batches, and keeps live ones', async () => {
    const users = [await newUser(t, 'purge'), await newUser(t, 'purge'), await newUser(t, 'purge'), await newUser(t, 'purge')];
    const ids = users.map((u) => u.userId);
    const [live] = users;
    await t.db.query(`UPDATE sessions SET expires_at = now() - interval '1 minute' WHERE user_id = ANY($1::uuid[]) AND user_id <> $2`, [ids, live.userId]);
    const purge = new PurgeSessionsProcessor(t.app.get(SessionsRepository, { strict: false }));
    const ours = async () =>
      (await t.db.query('SELECT user_id FROM sessions WHERE user_id = ANY($1::uuid[])', [ids])).map((r: { user_id: string }) => r.user_id);
    // one run does at most maxBatches × batchSize: two single-row batches of (at least) three expired sessions
    expect(await purge.purge(1, 2)).toEqual({ deleted: 2 });
    expect((await ours()).length).toBeGreaterThanOrEqual(2);
    // the next run takes the rest; the live session stays and still signs its user in
    expect((await purge.purge()).deleted).toBeGreaterThanOrEqual(1);
    expect(await ours()).toEqual([live.userId]);
    await live.http.get('/api/auth/me').expect(200);
    await users[1].http.get('/api/auth/me').expect(401);
  });

  it('duplicate email (any case) is 409; bad input is 400 in the error shape', async () => {
    const u = await newUser(t, 'dup');
    const res = await t.http().post('/api/auth/signup').send({ email: u.email.toUpperCase(), password: 'another-pass-1' }).expect(409);
    expect(res.body).toMatchObject({ error: expect.any(String), code: 'email_taken' });
    for (const body of [{}, { email: 'nope', password: 'longenough1' }, { email: 'a@b.co', password: 'short' }, { email: 5, password: 'longenough1' }]) {
      const r = await t.http().post('/api/auth/signup').send(body).expect(400);
      expect(withoutDetails(r.body)).toEqual({ error: expect.any(String), code: 'validation_failed' });
    }
    // a lone surrogate once reached the email validator's encodeURI (URIError, a 500)
    for (const email of ['\ud800', 'a\udc00@example.com', `${uniq('nul')}\u0000@example.com`]) {
      const r = await t.http().post('/api/auth/signup').send({ email, password: 'longenough1' }).expect(400);
      expect(withoutDetails(r.body)).toEqual({ error: expect.any(String), code: 'validation_failed' });
    }
    await t.http().post('/api/auth/signup').set('content-type', 'application/json').send('{"email": ').expect(400);
    await t.http().post('/api/auth/signup').set('content-type', 'application/json').send('[]').expect(400);
  });

  it('login: 200 with cookie; wrong password and unknown email are the same 401', async () => {
    const u = await newUser(t, 'login');
    const agent = t.http();
    await agent.post('/api/auth/login').send({ email: u.email, password: u.password }).expect(200);
    const me = await agent.get('/api/auth/me').expect(200);
    expect(me.body.auth).toMatchObject({ type: 'human', userId: u.userId, orgId: null });
    const a = await t.http().post('/api/auth/login').send({ email: u.email, password: 'wrong-password' }).expect(401);
    const b = await t
      .http()
      .post('/api/auth/login')
      .send({ email: `${uniq('none')}@example.com`, password: 'wrong-password' })
      .expect(401);
    expect(a.body).toEqual(b.body);
    expect(a.body.code).toBe('unauthorized');
  });

  it('logout deletes the server-side session: the old cookie no longer works', async () => {
    const u = await newUser(t, 'logout');
    const me = await u.http.get('/api/auth/me').expect(200);
    expect(me.body.auth.type).toBe('human');
    const cookie = (await t.db.query('SELECT count(*)::int AS n FROM sessions WHERE user_id = $1', [u.userId]))[0].n;
    expect(cookie).toBe(1);
    await u.http.post('/api/auth/logout').expect(200);
    expect((await t.db.query('SELECT count(*)::int AS n FROM sessions WHERE user_id = $1', [u.userId]))[0].n).toBe(0);
  });

  it('missing or garbage credentials are exactly { error: "Unauthorized", code: "unauthorized" }', async () => {
    for (const auth of [undefined, 'Bearer sk_service_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', 'Bearer garbage', 'Basic abc']) {
      const req = t.http().get('/api/auth/me');
      if (auth) req.set('authorization', auth);
      const res = await req.expect(401);
      expect(res.body).toEqual({ error: 'Unauthorized', code: 'unauthorized' });
    }
    const res = await t.http().get('/api/auth/me').set('cookie', 'sid=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA').expect(401);
    expect(res.body).toEqual({ error: 'Unauthorized', code: 'unauthorized' });
  });

  it('cookie-authenticated writes from another site are refused; same-origin ones pass', async () => {
    const u = await newUser(t, 'csrf');
    const evil = await u.http.post('/api/orgs').set('origin', 'https://evil.example').send({ name: 'Evil' }).expect(403);
    expect(evil.body.error).toMatch(/Cross-site/);
    await u.http.post('/api/orgs').set('sec-fetch-site', 'cross-site').send({ name: 'Evil' }).expect(403);
    const rows = await t.db.query(`SELECT count(*)::int AS n FROM members WHERE user_id = $1`, [u.userId]);
    expect(rows[0].n).toBe(0);
  });

  it('logout gets the same origin check: a foreign Origin cannot end the session; the own origin can', async () => {
    const u = await newUser(t, 'logoutcsrf');
    const sessions = async () => (await t.db.query('SELECT count(*)::int AS n FROM sessions WHERE user_id = $1', [u.userId]))[0].n;
    for (const [header, value] of [
      ['origin', 'https://evil.example'],
      ['origin', 'null'],
      ['referer', 'https://evil.example/page'],
      ['sec-fetch-site', 'cross-site'],
    ]) {
      const r = await u.http.post('/api/auth/logout').set(header, value).expect(403);
      expect(r.body).toEqual({ error: 'Cross-site request refused', code: 'forbidden' });
      expect(r.headers['set-cookie']).toBeUndefined();
    }
    expect(await sessions()).toBe(1);
    await u.http.get('/api/auth/me').expect(200);
    const own = await u.http.post('/api/auth/logout').expect(200); // supertest's Host, no Origin: not a browser
    expect(String(own.headers['set-cookie'])).toMatch(/^sid=;/);
    expect(await sessions()).toBe(0);
    const v = await newUser(t, 'logoutown');
    await v.http.post('/api/auth/logout').set('host', 'app.example:8080').set('origin', 'https://app.example:8080').expect(200);
    expect((await t.db.query('SELECT count(*)::int AS n FROM sessions WHERE user_id = $1', [v.userId]))[0].n).toBe(0);
  });

  it('unknown /api paths are 404 { error: "Not found", code: "not_found" }', async () => {
    const res = await t.http().get('/api/definitely/not/here').expect(404);
    expect(res.body).toEqual({ error: 'Not found', code: 'not_found' });
  });
});

describe('accounts: trusted origins (SERVICE_TRUSTED_ORIGINS)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ SERVICE_TRUSTED_ORIGINS: 'https://app.example' });
  });
  afterAll(() => t.close());

  it('cookie writes and logout from a trusted origin pass; other origins are refused', async () => {
    const u = await newUser(t, 'trusted');
    await u.http
      .post('/api/orgs')
      .set('origin', 'https://app.example')
      .send({ name: uniq('Org') })
      .expect(201);
    await u.http.post('/api/auth/logout').set('origin', 'https://other.example').expect(403);
    await u.http.post('/api/auth/logout').set('origin', 'https://app.example').expect(200);
    await u.http.get('/api/auth/me').expect(401);
  });
});

/** A client address no other test or run uses (IPv6 documentation range, 96 random bits). */
const address = () => `2001:db8:${Array.from({ length: 6 }, () => randomBytes(2).toString('hex')).join(':')}`;

describe('accounts: limits on credential attempts (Redis-backed, behind a trusted proxy)', () => {
  let t: TestApp;
  beforeAll(async () => {
    // the test client connects from 127.0.0.1, the trusted proxy; X-Forwarded-For names the client
    t = await startTestApp({ TRUST_PROXY: 'loopback', AUTH_RATE_LIMIT_PER_MINUTE: '6', AUTH_LOGIN_FAILURES_PER_ACCOUNT: '4' });
  });
  afterAll(() => t.close());
  const login = (from: string, email: string, password: string) => t.http().post('/api/auth/login').set('x-forwarded-for', from).send({ email, password });
  const signup = async (from: string) => {
    const email = `${uniq('lim')}@example.com`;
    const password = `pw-${randomBytes(8).toString('hex')}`;
    await t.http().post('/api/auth/signup').set('x-forwarded-for', from).send({ email, password }).expect(201);
    return { email, password };
  };

  it('failed logins for one account are limited across client addresses: 429 RATE_LIMITED with Retry-After, even with the right password', async () => {
    const u = await signup(address());
    const [a, b, c, d] = [address(), address(), address(), address()];
    expect((await login(a, u.email, 'wrong-password-1')).status).toBe(401);
    expect((await login(a, u.email, 'wrong-password-2')).status).toBe(401);
    expect((await login(a, u.email, u.password)).status).toBe(200); // a success does not count as a failure
    expect((await login(b, `  ${u.email.toUpperCase()} `, 'wrong-password-3')).status).toBe(401); // same account, any case
    expect((await login(b, u.email, 'wrong-password-4')).status).toBe(401); // the 4th failure: the limit
    const refused = await login(c, u.email, 'wrong-password-5');
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ error: 'Too many requests', code: 'RATE_LIMITED', retryAfterSeconds: expect.any(Number), limit: 4, currentCount: 5 });
    expect(refused.body.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(refused.body.retryAfterSeconds).toBeLessThanOrEqual(900); // AUTH_LOGIN_FAILURE_WINDOW_SECONDS default
    expect(refused.headers['retry-after']).toBe(String(refused.body.retryAfterSeconds));
    // locked until the window ends: the right password from a fresh address is refused too, with no session
    const locked = await login(d, u.email, u.password);
    expect(locked.status).toBe(429);
    expect(locked.headers['set-cookie']).toBeUndefined();
    // the limit is per account: another account from the same addresses is unaffected
    const other = await signup(address());
    expect((await login(a, other.email, 'wrong-password')).status).toBe(401);
    expect((await login(c, other.email, other.password)).status).toBe(200);
  });

  it('unknown accounts are limited the same way (the answer does not reveal whether an account exists)', async () => {
    const email = `${uniq('ghost')}@example.com`;
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await login(address(), email, 'wrong-password')).status);
    expect(statuses).toEqual([401, 401, 401, 401, 429]);
  });

  it('per client address: signup and login share one budget per minute, whatever the account', async () => {
    const from = address();
    await signup(from);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await login(from, `${uniq('any')}@example.com`, 'wrong-password')).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    const last = await login(from, `${uniq('any')}@example.com`, 'wrong-password');
    expect(last.body).toMatchObject({ code: 'RATE_LIMITED', limit: 6 });
    expect(Number(last.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(last.headers['retry-after'])).toBeLessThanOrEqual(60);
    await t
      .http()
      .post('/api/auth/signup')
      .set('x-forwarded-for', from)
      .send({ email: `${uniq('late')}@example.com`, password: 'long-enough-1' })
      .expect(429);
    expect((await login(address(), `${uniq('any')}@example.com`, 'wrong-password')).status).toBe(401); // another address is unaffected
  });

  it('with TRUST_PROXY listing the proxies, a client cannot choose its address by sending its own X-Forwarded-For', async () => {
    const real = address();
    const statuses: number[] = [];
    // the proxy appends the address it saw; whatever the client put before it is not trusted
    for (let i = 0; i < 7; i++) statuses.push((await login(`${address()}, ${real}`, `${uniq('spoof')}@example.com`, 'wrong-password')).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 401, 429]);
  });
});

describe('accounts: login and signup fail closed when the rate limiter cannot answer', () => {
  let t: TestApp;
  beforeAll(async () => {
    // a real Redis URL on a port reserved just now, with nothing listening
    t = await startTestApp({ REDIS_URL: `redis://127.0.0.1:${await reservedPort()}` });
  });
  afterAll(() => t.close());

  it('login and signup are 503 RATE_LIMIT_CHECK_FAILED; no account or session is created', async () => {
    const email = `${uniq('closed')}@example.com`;
    const s = await t.http().post('/api/auth/signup').send({ email, password: 'long-enough-1' });
    expect(s.status).toBe(503);
    expect(s.body).toEqual({ error: 'Rate limit check failed', code: 'RATE_LIMIT_CHECK_FAILED', retryAfterSeconds: null });
    expect(s.headers['set-cookie']).toBeUndefined();
    expect((await t.db.query('SELECT count(*)::int AS n FROM users WHERE lower(email) = lower($1)', [email]))[0].n).toBe(0);
    const l = await t.http().post('/api/auth/login').send({ email, password: 'long-enough-1' });
    expect(l.status).toBe(503);
    expect(l.body).toEqual({ error: 'Rate limit check failed', code: 'RATE_LIMIT_CHECK_FAILED', retryAfterSeconds: null });
    // bad input is still a 400 (validated before the limiter is asked)
    await t.http().post('/api/auth/login').send({ email: 5 }).expect(400);
  });
});

describe('hostile bodies', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('a deeply nested body is a 400, not a stack overflow (on any DTO route)', async () => {
    const u = await newUser(t, 'deep');
    const deep = `${'['.repeat(5000)}${']'.repeat(5000)}`;
    for (const [path, extra] of [
      ['/api/orgs', '"name":"x"'],
      ['/api/auth/login', '"email":"a@b.co","password":"x"'],
    ]) {
      const res = await u.http.post(path).set('content-type', 'application/json').send(`{${extra},"x":${deep}}`);
      expect(res.status).toBe(400);
      expect(res.body.error).toMatch(/nested/);
    }
  });
});
