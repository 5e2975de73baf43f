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
