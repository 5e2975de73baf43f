import type { NestFastifyApplication } from '@nestjs/platform-fastify';

/** Routes that take `application/x-www-form-urlencoded` bodies: the OAuth token and revocation endpoints (RFC 6749/7009) and the consent page's form. */
export const FORM_ROUTES = new Set(['/api/oauth/token', '/api/oauth/revoke', '/api/oauth/consent']);
const MAX_FORM_BYTES = 64 * 1024;

/**
 * Parses form bodies for FORM_ROUTES only (every other route stays JSON-only: a cross-site form
 * cannot reach them). A repeated field becomes an array (the handlers refuse repeats where OAuth
 * forbids them; the consent form repeats `agent_ids`).
 */
export function registerOAuthFormBodies(app: NestFastifyApplication): void {
  app.useBodyParser('application/x-www-form-urlencoded', { bodyLimit: MAX_FORM_BYTES }, (req, body, done) => {
    const path = (req.url ?? '').split('?')[0];
    if (!FORM_ROUTES.has(path)) {
      const e = Object.assign(new Error('Unsupported content type; send application/json'), { statusCode: 415, code: 'FST_ERR_CTP_INVALID_MEDIA_TYPE' });
      return done(e, undefined);
    }
    const out: Record<string, string | string[]> = {};
    for (const [k, v] of new URLSearchParams(body.toString())) {
      const prev = out[k];
      out[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v];
    }
    done(null, out);
  });
}
