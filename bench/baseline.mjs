// The minimal baseline the service is compared with: plain node:http plus a pg Pool of the same
// size, answering each scenario (at /<scenario name>) with the same SQL and a JSON body. No
// framework, no validation, no logging, no metrics: the floor of what the request costs here.
// Started by run.mjs (fork, IPC): env BASELINE_PORT, DATABASE_URL, DATABASE_POOL_SIZE.
import '../dist/src/process/heap-tuning.js'; // the service's V8 heap settings (bench/run.mjs)
import { createServer } from 'node:http';
import pg from 'pg';
import { authenticateKey, scenarios } from './scenarios.mjs';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.DATABASE_POOL_SIZE ?? 20) });
const byPath = new Map(scenarios.map((s) => [`/${s.name}`, s]));

function send(res, status, body) {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/** The JSON request body of a write (undefined for reads). */
async function readBody(req) {
  if (req.method === 'GET' || req.method === 'HEAD') return undefined;
  const chunks = [];
  for await (const c of req) chunks.push(c);
  return chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined;
}

const server = createServer(async (req, res) => {
  try {
    const url = new URL(req.url, 'http://baseline');
    const scenario = byPath.get(url.pathname);
    if (!scenario) return send(res, 404, { error: 'Not found', code: 'not_found' });
    const body = await readBody(req);
    const principal = await authenticateKey(pool, req.headers.authorization);
    if (!principal) return send(res, 401, { error: 'Unauthorized', code: 'unauthorized' });
    send(res, scenario.write && req.method === 'POST' ? 201 : 200, await scenario.baseline({ pool, principal, url, body }));
  } catch (e) {
    console.error(e);
    send(res, 500, { error: 'Internal server error' });
  }
});
server.keepAliveTimeout = 72_000;

server.listen(Number(process.env.BASELINE_PORT), '127.0.0.1', () => process.send?.('ready'));

// autocannon abandons in-flight requests when a run ends; their handlers may still be querying, so
// stop at once rather than end the pool under them (run.mjs drops the database anyway).
const stop = () => {
  server.closeAllConnections();
  process.exit(0);
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
process.on('disconnect', stop);
