import { createHash, createHmac, randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Test, type TestingModule } from '@nestjs/testing';
import { Clock } from '../../src/common/clock/clock';
import { EgressClient } from '../../src/common/egress/egress-client';
import type { AppConfig } from '../../src/config/config';
import { DEFAULT_WEBHOOK_TIMING, WEBHOOK_TIMING, type WebhookTiming } from '../../src/modules/webhooks/webhooks.constants';
import { WorkerModule } from '../../src/worker.module';
import { SecretBox } from '../../src/common/crypto/secret-box';
import { type SecretBinding, WebhookSecrets, signingKeyOf } from '../../src/modules/webhooks/webhook-secrets';
import type { TestApp } from './app';

/**
 * A webhook row written straight to the database (for outbox tests that need no HTTP). Values are
 * sealed for their row, or without binding (`legacy`, as before 1765520000000).
 */
export async function insertWebhookRow(
  t: TestApp,
  orgId: string,
  o: { purpose?: string; enabled?: boolean; events?: string[]; url?: string; secret?: string; legacy?: boolean } = {},
): Promise<string> {
  const secrets = t.app.get(WebhookSecrets);
  const legacyBox = new SecretBox(t.config.encryptionKey, 'webhooks');
  const seal = (plain: string, b: SecretBinding) => (o.legacy ? legacyBox.sealText(plain) : secrets.seal(plain, b));
  const id = randomUUID();
  const versionId = randomUUID();
  const url = o.url ?? 'https://hooks.example.com/in';
  await t.db.transaction(async (m) => {
    await m.query(`INSERT INTO webhooks (org_id, id, destination_display, events, enabled, purpose, current_version_id) VALUES ($1, $2, $3, $4, $5, $6, $7)`, [
      orgId,
      id,
      new URL(url).origin,
      o.events ?? ['issue.created'],
      o.enabled ?? true,
      o.purpose ?? 'webhook',
      versionId,
    ]);
    await m.query(`INSERT INTO webhook_versions (org_id, id, webhook_id, url_enc, auth_type) VALUES ($1, $2, $3, $4, 'none')`, [
      orgId,
      versionId,
      id,
      seal(url, { kind: 'version', orgId, webhookId: id, versionId, field: 'url' }),
    ]);
    await m.query(`INSERT INTO webhook_signing_keys (org_id, webhook_id, version, key_enc) VALUES ($1, $2, 1, $3)`, [
      orgId,
      id,
      seal(signingKeyOf(o.secret ?? 'test-secret'), { kind: 'signing-key', orgId, webhookId: id, version: 1 }),
    ]);
  });
  return id;
}

/** A local HTTP receiver on 127.0.0.1 recording every request; per-path-prefix behaviour. */
export type ReceiverMode = 'ok' | 'fail' | 'fail-first' | 'gone' | 'redirect' | 'stall' | 'odd-status' | 'big-ok';
export interface Received {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  raw: Buffer;
  text: string;
  json: any;
  at: number;
}
export class Receiver {
  readonly reqs: Received[] = [];
  private readonly modes: Array<[string, ReceiverMode]> = [];
  private readonly seen = new Set<string>();
  private readonly stalled: ServerResponse[] = [];
  private server!: Server;
  port = 0;

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c) => chunks.push(c));
      req.on('end', () => {
        const raw = Buffer.concat(chunks);
        const path = new URL(req.url ?? '/', 'http://x').pathname;
        let json: unknown;
        try {
          json = JSON.parse(raw.toString());
        } catch {
          json = undefined;
        }
        this.reqs.push({ method: req.method ?? '', path, headers: req.headers, raw, text: raw.toString(), json, at: Date.now() });
        const mode = this.modes.filter(([p]) => path.startsWith(p)).sort((a, b) => b[0].length - a[0].length)[0]?.[1] ?? 'ok';
        const key = `${path}|${req.headers['x-service-delivery-id']}`;
        if (mode === 'stall') return void this.stalled.push(res);
        if (mode === 'redirect') return void res.writeHead(302, { location: `http://127.0.0.1:${this.port}/internal-target` }).end();
        if (mode === 'odd-status') return void res.writeHead(799).end('odd');
        if (mode === 'big-ok') return void res.writeHead(200, { 'content-type': 'text/html' }).end(Buffer.alloc(200 * 1024, 97));
        let status = 200;
        if (mode === 'fail' || (mode === 'fail-first' && !this.seen.has(key))) status = 500;
        if (mode === 'gone') status = 410;
        this.seen.add(key);
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: status < 300, secret: 'RECEIVER-RESPONSE-BODY' }));
      });
    });
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', () => r()));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }
  url(path: string): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }
  mode(prefix: string, m: ReceiverMode): void {
    this.modes.unshift([prefix, m]);
  }
  /** Drops the connections of stalled requests (the sender sees a network error). */
  releaseStalled(): void {
    for (const r of this.stalled.splice(0)) r.socket?.destroy();
  }
  on(prefix: string): Received[] {
    return this.reqs.filter((r) => r.path.startsWith(prefix));
  }
  async waitFor(pred: (r: Received) => boolean, timeoutMs = 15_000): Promise<Received> {
    const end = Date.now() + timeoutMs;
    for (;;) {
      const hit = this.reqs.find(pred);
      if (hit) return hit;
      if (Date.now() > end) throw new Error('no matching delivery arrived');
      await new Promise((r) => setTimeout(r, 25));
    }
  }
  async waitCount(pred: (r: Received) => boolean, n: number, timeoutMs = 15_000): Promise<Received[]> {
    const end = Date.now() + timeoutMs;
    for (;;) {
      const hits = this.reqs.filter(pred);
      if (hits.length >= n) return hits;
      if (Date.now() > end) throw new Error(`expected ${n} deliveries, got ${hits.length}`);
      await new Promise((r) => setTimeout(r, 25));
    }
  }
  async stop(): Promise<void> {
    this.releaseStalled();
    this.server.closeAllConnections();
    await new Promise((r) => this.server.close(r));
  }
}

/** A clock that can be moved forward (the worker's sweeps and leases without sleeping). */
export class OffsetClock extends Clock {
  offsetMs = 0;
  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }
}

/** The worker process's module in-process, with short retry delays and optional egress/clock overrides. */
export async function startTestWorker(
  config: AppConfig,
  o: { timing?: Partial<WebhookTiming>; egress?: EgressClient; clock?: Clock } = {},
): Promise<TestingModule> {
  let b = Test.createTestingModule({ imports: [WorkerModule.forRoot(config)] })
    .overrideProvider(WEBHOOK_TIMING)
    .useValue({ ...DEFAULT_WEBHOOK_TIMING, retryDelaysMs: [300, 600], leaseMs: 3000, drainGraceMs: 0, attemptTimeoutMs: 3000, ...(o.timing ?? {}) });
  if (o.egress) b = b.overrideProvider(EgressClient).useValue(o.egress);
  if (o.clock) b = b.overrideProvider(Clock).useValue(o.clock);
  const mod = await b.compile();
  await mod.init();
  return mod;
}

/** Independent check of `X-Service-Signature`: HMAC-SHA256 keyed by the SHA-256 hex of the secret over the raw body. */
export const expectedServiceSignature = (secret: string, raw: Buffer): string =>
  `sha256=${createHmac('sha256', createHash('sha256').update(secret).digest('hex')).update(raw).digest('hex')}`;
