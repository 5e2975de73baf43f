import { Agent, request } from 'node:http';

/**
 * Polls until `path` answers 200 (every 200 ms, each try at most 2 s), failing at once when the
 * process `entry.child` (named `entry.name`) has exited. The routes of other modules may still be
 * missing (404): then this fails with a clear message instead of measuring errors.
 */
export async function waitForHttp(base, path, entry, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  let last = 'no answer';
  while (Date.now() < deadline) {
    if (entry.child.exitCode !== null || entry.child.signalCode !== null)
      throw new Error(`${entry.name} exited (${entry.child.exitCode ?? entry.child.signalCode}) before ${path} answered`);
    try {
      const r = await fetch(`${base}${path}`, { signal: AbortSignal.timeout(2000) });
      if (r.status === 200) return;
      last = String(r.status);
    } catch (e) {
      last = e.message;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${entry.name}: ${path} did not answer 200 within ${timeoutMs} ms (last: ${last})`);
}

// One JSON call against the API for the bench scripts (run.mjs, lease-probe.mjs): `expect` throws
// on another status; a body that is not JSON reads as undefined.
export async function call(base, method, path, { body, cookie, headers = {}, expect } = {}) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...(cookie ? { cookie } : {}), ...headers },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  let json;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  if (expect !== undefined && res.status !== expect) {
    throw new Error(`${method} ${path}: expected ${expect}, got ${res.status} ${text.slice(0, 300)}`);
  }
  return { status: res.status, body: json, headers: res.headers };
}

/**
 * `call` over one keep-alive `node:http` agent (the load loops of runners.mjs): the same answer
 * shape without fetch's per-request streams and promises, so the load generator, which shares
 * this machine's cores with the service, spends less of them per request.
 */
export function keepAliveCaller(maxSockets = 256) {
  const agent = new Agent({ keepAlive: true, maxSockets });
  return (base, method, path, { body, cookie, headers = {}, expect } = {}) =>
    new Promise((resolve, reject) => {
      const payload = body !== undefined ? JSON.stringify(body) : undefined;
      const req = request(
        `${base}${path}`,
        {
          agent,
          method,
          headers: {
            ...(payload !== undefined ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}),
            ...(cookie ? { cookie } : {}),
            ...headers,
          },
        },
        (res) => {
          const chunks = [];
          res.on('data', (c) => chunks.push(c));
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString();
            let json;
            try {
              json = text ? JSON.parse(text) : undefined;
            } catch {
              json = undefined;
            }
            if (expect !== undefined && res.statusCode !== expect)
              reject(new Error(`${method} ${path}: expected ${expect}, got ${res.statusCode} ${text.slice(0, 300)}`));
            else resolve({ status: res.statusCode, body: json, headers: res.headers });
          });
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(payload);
    });
}
