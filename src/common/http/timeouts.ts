import { STATUS_CODES, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { AppConfig } from '../../config/config';

/**
 * Slow or stalled clients (see docs/DECISIONS.md "HTTP timeouts and upload bound"): each of the
 * three limits answers 408 `{ error, code: "request_timeout" }` and closes the connection.
 * - headers: the request line and headers must arrive within HTTP_HEADERS_TIMEOUT_MS (Node's
 *   `headersTimeout`);
 * - request: the whole request, body included, within HTTP_REQUEST_TIMEOUT_MS (Node's
 *   `requestTimeout`; Fastify's default of 0 turns it off, which let a never-ending body hang);
 * - body: a body may not pause longer than HTTP_BODY_TIMEOUT_MS (checked here, per request).
 * Node checks the first two every second (its default interval is 30 s).
 */

const TIMED_OUT = JSON.stringify({ error: 'Request timed out: the client did not send it in time', code: 'request_timeout' });
const CHECK_INTERVAL_MS = 1000;

type Limits = Pick<AppConfig, 'httpHeadersTimeoutMs' | 'httpRequestTimeoutMs'>;

/** Options for the Fastify instance (and the Node server it creates). */
export function httpServerOptions(config: Limits) {
  return {
    requestTimeout: config.httpRequestTimeoutMs,
    http: {
      headersTimeout: config.httpHeadersTimeoutMs,
      requestTimeout: config.httpRequestTimeoutMs,
      connectionsCheckingInterval: Math.min(CHECK_INTERVAL_MS, config.httpHeadersTimeoutMs),
    },
    clientErrorHandler,
  };
}

/** Errors Node reports before a request reaches Fastify (timeouts, unparsable HTTP), in the error shape. */
function clientErrorHandler(err: Error & { code?: string }, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, body] =
    err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? [408, TIMED_OUT]
      : err.code === 'HPE_HEADER_OVERFLOW'
        ? [431, JSON.stringify({ error: 'Request headers are too large', code: 'headers_too_large' })]
        : [400, JSON.stringify({ error: 'Malformed HTTP request', code: 'bad_request' })];
  // As Node's own handler does: never write into a response that has already begun.
  const inFlight = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
  if (socket.writable && !inFlight?.headersSent) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(err);
}

/**
 * A request body that stops arriving for `ms` gets the 408 and its connection is closed, which
 * also fails whatever was reading the body (an upload gives its slot back). Bytes the service has
 * not read yet (back-pressure) do not count as the client's pause.
 */
export function registerBodyTimeout(fastify: FastifyInstance, ms: number): void {
  fastify.addHook('onRequest', (req, reply, done) => {
    const raw = req.raw;
    const socket = raw.socket as Socket | null;
    const hasBody = raw.headers['transfer-encoding'] !== undefined || Number(raw.headers['content-length'] ?? 0) > 0;
    if (socket && hasBody && !raw.complete) {
      let seen = socket.bytesRead;
      const timer = setTimeout(() => {
        if (raw.complete || reply.sent || socket.destroyed) return;
        if (socket.bytesRead !== seen || raw.readableLength > 0) {
          seen = socket.bytesRead;
          timer.refresh();
          return;
        }
        reply.raw.once('finish', () => raw.destroy());
        void reply.code(408).header('connection', 'close').type('application/json; charset=utf-8').send(TIMED_OUT);
      }, ms);
      timer.unref();
      reply.raw.once('close', () => clearTimeout(timer));
    }
    done();
  });
}
