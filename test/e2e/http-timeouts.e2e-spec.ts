import { randomUUID } from 'node:crypto';
import { connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { startTestApp, type TestApp } from '../support/app';
import { newOrg, newProject, type TestOrg } from '../support/factories';

/**
 * Slow or stalled clients get 408 `{ error, code: "request_timeout" }` and the connection closes:
 * headers not complete within HTTP_HEADERS_TIMEOUT_MS, a body that pauses longer than
 * HTTP_BODY_TIMEOUT_MS, a request not complete within HTTP_REQUEST_TIMEOUT_MS. (Short values here;
 * each test waits for the answer, bounded by its own deadline, rather than for a fixed time.)
 */
describe('HTTP timeouts', () => {
  let t: TestApp;
  let org: TestOrg;
  let port: number;
  let cookie: string;

  beforeAll(async () => {
    t = await startTestApp({ HTTP_HEADERS_TIMEOUT_MS: '600', HTTP_BODY_TIMEOUT_MS: '600', HTTP_REQUEST_TIMEOUT_MS: '4000' });
    org = await newOrg(t);
    const login = await t.http().post('/api/auth/login').send({ email: org.owner.email, password: org.owner.password }).expect(200);
    cookie = String(login.headers['set-cookie'][0]).split(';')[0];
    const server = t.app.getHttpServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => t?.close());

  /** Everything the server sends until it closes the connection (or the deadline passes). */
  function exchange(write: (s: Socket) => void, deadlineMs = 15_000): Promise<{ text: string; closed: boolean; ms: number }> {
    return new Promise((resolve) => {
      const started = Date.now();
      const s = connect(port, '127.0.0.1');
      let text = '';
      const timer = setTimeout(() => {
        s.destroy();
        resolve({ text, closed: false, ms: Date.now() - started });
      }, deadlineMs);
      s.on('data', (d) => (text += d.toString()));
      s.on('error', () => undefined);
      s.on('close', () => {
        clearTimeout(timer);
        resolve({ text, closed: true, ms: Date.now() - started });
      });
      s.on('connect', () => write(s));
    });
  }
  const parse = (raw: string) => {
    const [head, body] = raw.split('\r\n\r\n');
    return { status: Number(head.split(' ')[1]), head, body: body ? JSON.parse(body) : undefined };
  };
  const TIMEOUT = { error: expect.stringMatching(/timed out/i), code: 'request_timeout' };

  it('headers that never finish: 408 in the error shape, connection closed', async () => {
    const r = await exchange((s) => s.write('GET /health HTTP/1.1\r\nHost: x\r\nX-Slow: '));
    expect(r.closed).toBe(true);
    const res = parse(r.text);
    expect(res.status).toBe(408);
    expect(res.head).toMatch(/content-type: application\/json/i);
    expect(res.body).toEqual(TIMEOUT);
  });

  it('a JSON body that stops arriving: 408, connection closed; nothing is created', async () => {
    const name = `stall-${randomUUID()}`;
    const body = JSON.stringify({ name });
    const r = await exchange((s) =>
      s.write(
        `POST /api/orgs HTTP/1.1\r\nHost: x\r\nCookie: ${cookie}\r\nContent-Type: application/json\r\nContent-Length: ${body.length + 50}\r\n\r\n${body}`,
      ),
    );
    expect(r.closed).toBe(true);
    expect(parse(r.text)).toMatchObject({ status: 408, body: TIMEOUT });
    expect(await t.db.query('SELECT 1 FROM organizations WHERE name = $1', [name])).toHaveLength(0);
  });

  it('an upload whose body stops arriving: 408, nothing stored, the upload slot is given back', async () => {
    const proj = await newProject(t, org);
    const issue = (await org.owner.http.post(`/api/orgs/${org.id}/issues`).send({ title: 'stall', projectId: proj.id }).expect(201)).body.issue.id;
    const part = '--XyZ\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\nhello';
    const r = await exchange((s) =>
      s.write(
        `POST /api/orgs/${org.id}/issues/${issue}/attachments HTTP/1.1\r\nHost: x\r\nCookie: ${cookie}\r\n` +
          `Content-Type: multipart/form-data; boundary=XyZ\r\nContent-Length: ${part.length + 1000}\r\n\r\n${part}`,
      ),
    );
    expect(r.closed).toBe(true);
    expect(parse(r.text)).toMatchObject({ status: 408, body: TIMEOUT });
    expect(await t.db.query('SELECT 1 FROM attachments WHERE org_id = $1 AND issue_id = $2', [org.id, issue])).toHaveLength(0);
    // every slot is free again: a normal upload goes through
    await org.owner.http.post(`/api/orgs/${org.id}/issues/${issue}/attachments`).attach('file', Buffer.from('fine'), { filename: 'b.txt' }).expect(201);
  });

  it('a body that trickles in (never pausing long) is cut at the request timeout: 408', async () => {
    let timer: NodeJS.Timeout | undefined;
    const r = await exchange((s) => {
      s.write(`POST /api/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"email":"`);
      timer = setInterval(() => s.writable && s.write('a'), 150);
    });
    clearInterval(timer);
    expect(r.closed).toBe(true);
    expect(parse(r.text)).toMatchObject({ status: 408, body: TIMEOUT });
    expect(r.ms).toBeGreaterThanOrEqual(3500);
  });

  it('ordinary requests are unaffected, on the same keep-alive connection too', async () => {
    await t.http().get('/health').expect(200);
    const r = await exchange((s) => {
      s.write('GET /health HTTP/1.1\r\nHost: x\r\n\r\n');
      // idle on the kept-alive connection for longer than the headers and body timeouts, then reuse it
      s.once('data', () => setTimeout(() => s.write('GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'), 1500));
    });
    expect(r.text.match(/HTTP\/1\.1 200/g)).toHaveLength(2);
  });
});
