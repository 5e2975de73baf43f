import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DomainError } from '../../common/errors/domain-error';
import { unsupportedBodyTypeMessage } from '../../common/http/json-body';
import { wantsRawForm } from '../../common/http/raw-body';

/** Routes that take `application/x-www-form-urlencoded` bodies: the OAuth token and revocation endpoints (RFC 6749/7009) and the consent page's form. */
export const FORM_ROUTES = new Set(['/api/oauth/token', '/api/oauth/revoke', '/api/oauth/consent']);
const MAX_FORM_BYTES = 64 * 1024;

/**
 * Parses form bodies for FORM_ROUTES only (every other route stays JSON-only: a cross-site form
 * cannot reach them). A raw-body route that takes forms (`RawJsonBody(limit, { form: true })`:
 * signed provider callbacks) gets the Buffer unparsed, within its own body limit. A repeated field becomes an array (the handlers refuse repeats where OAuth
 * forbids them; the consent form repeats `agent_ids`).
 */
export function registerOAuthFormBodies(app: NestFastifyApplication): void {
  app.useBodyParser('application/x-www-form-urlencoded', { bodyLimit: MAX_FORM_BYTES }, (req, body, done) => {
    if (wantsRawForm(req as never)) return done(null, body);
    const path = (req.url ?? '').split('?')[0];
    if (!FORM_ROUTES.has(path)) {
      // the 415 of every JSON route (json-body.ts), so a form answers the same advice everywhere
      return done(new DomainError(415, 'unsupported_media_type', unsupportedBodyTypeMessage('application/x-www-form-urlencoded')), undefined);
    }
    const out: Record<string, string | string[]> = {};
    for (const [k, v] of new URLSearchParams(body.toString())) {
      const prev = out[k];
      out[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v];
    }
    done(null, out);
  });
}
