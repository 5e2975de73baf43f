import { request } from 'node:http';
import { Writable } from 'node:stream';
import Fastify, { type FastifyInstance } from 'fastify';
import { HttpLog, Logger, registerRequestLogging } from './logging.module';

/** Request logging (registerRequestLogging) on a plain Fastify server over real HTTP, its lines read back. */
describe('request logging', () => {
  let lines: Record<string, any>[];
  /** Resolvers waiting for a line with a given message. */
  let waiting: Array<{ msg: string; resolve: () => void }>;
  const lineWith = (msg: string) => (lines.some((l) => l.msg === msg) ? Promise.resolve() : new Promise<void>((resolve) => waiting.push({ msg, resolve })));
  let arrived: () => void;
  let release: () => void;
  let server: FastifyInstance;
  let base: string;

  const start = async (level: string) => {
    lines = [];
    waiting = [];
    const destination = new Writable({
      write(chunk: Buffer, _enc, done) {
        for (const l of chunk.toString().split('\n').filter(Boolean)) {
          const line = JSON.parse(l);
          lines.push(line);
          for (const w of waiting.filter((x) => x.msg === line.msg)) w.resolve();
        }
        done();
      },
    });
    const log = new HttpLog({ level, quietPath: (p) => p === '/health', destination });
    const logger = new Logger(log);
    server = Fastify({ genReqId: () => `req-${Math.random().toString(36).slice(2)}` });
    registerRequestLogging(server, log);
    server.get('/health', async () => ({ ok: true }));
    server.get('/work', async () => {
      await new Promise((r) => setTimeout(r, 1));
      logger.warn('working', 'Test');
      return { ok: true };
    });
    server.post('/echo', async (req) => {
      await Promise.resolve();
      logger.warn('echoing', 'Test');
      return req.body;
    });
    server.get('/fail', async (_req, reply) => reply.status(503).send({ error: 'down' }));
    // answers once the test releases it, after telling the test it has the request
    server.get('/held', async () => {
      const released = new Promise<void>((r) => (release = r));
      arrived();
      await released;
      return { ok: true };
    });
    await server.listen({ port: 0, host: '127.0.0.1' });
    const address = server.server.address();
    base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  };
  /** The lines written so far, once the response lines of `n` requests are in (onResponse runs after the client has the body). */
  const settled = async (n: number) => {
    for (let i = 0; i < 200 && lines.filter((l) => l.res).length < n; i++) await new Promise((r) => setImmediate(r));
    return lines;
  };
  afterEach(async () => server.close());

  it('a request whose client goes away before the answer gets "request aborted"', async () => {
    await start('info');
    const there = new Promise<void>((r) => (arrived = r));
    // node:http, whose destroy() closes the connection at once (fetch may keep it for reuse)
    const client = request(`${base}/held?x=1`);
    client.on('error', () => undefined);
    client.end();
    await there;
    client.destroy();
    await lineWith('request aborted');
    release();
    expect(lines.find((l) => l.msg === 'request aborted')).toMatchObject({ level: 30, req: { method: 'GET', url: '/held' } });
  });

  it('writes one line per request with its id, method, path (no query), status and time; lines written while handling carry the request', async () => {
    await start('info');
    await fetch(`${base}/work?secret=1`);
    const post = await fetch(`${base}/echo`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ a: 1 }) });
    expect(await post.json()).toEqual({ a: 1 });
    const all = await settled(2);
    const requestLines = all.filter((l) => l.msg === 'request completed');
    expect(requestLines).toHaveLength(2);
    expect(requestLines[0]).toMatchObject({ level: 30, req: { method: 'GET', url: '/work' }, res: { statusCode: 200 }, responseTime: expect.any(Number) });
    expect(requestLines[1]).toMatchObject({ req: { method: 'POST', url: '/echo' }, res: { statusCode: 200 } });
    expect(requestLines[0].req.id).not.toBe(requestLines[1].req.id);
    // the handler's own lines, after an await (GET) and after the JSON body was read (POST)
    expect(all.find((l) => l.msg === 'working')).toMatchObject({ context: 'Test', req: requestLines[0].req });
    expect(all.find((l) => l.msg === 'echoing')).toMatchObject({ context: 'Test', req: requestLines[1].req });
    expect(JSON.stringify(all)).not.toContain('secret');
  });

  it('a 5xx is "request errored" at error level; quiet paths get no line; below the level nothing is written', async () => {
    await start('info');
    await fetch(`${base}/health`);
    await fetch(`${base}/fail`);
    const all = await settled(1);
    expect(all.filter((l) => l.res)).toEqual([
      expect.objectContaining({ level: 50, msg: 'request errored', req: expect.objectContaining({ url: '/fail' }), res: { statusCode: 503 } }),
    ]);
    await server.close();

    await start('warn');
    await fetch(`${base}/fail`);
    await fetch(`${base}/work`);
    await settled(1);
    // warn: the 5xx line (error) and the handler's warning, no "request completed"
    expect(lines.map((l) => l.msg).sort()).toEqual(['request errored', 'working']);
  });
});
