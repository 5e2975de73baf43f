import { randomBytes } from 'node:crypto';
import { existsSync, linkSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import ipaddr from 'ipaddr.js';
import { dataDirProblem } from './data-dir';

/**
 * The only place that reads process.env. Everything is validated at boot; a bad value stops the
 * process with one message naming the variable and what it accepts.
 */
export type NodeEnv = 'development' | 'production' | 'test';
export type PlanName = 'unlimited' | 'free';

/** An S3-compatible bucket (STORAGE_DRIVER=s3). Credentials null: the AWS SDK's default chain (environment, instance role). */
export interface S3StorageConfig {
  bucket: string;
  region: string;
  /** null: AWS S3 itself; otherwise the service's URL (MinIO, Ceph, R2, ...). */
  endpoint: string | null;
  accessKeyId: string | null;
  secretAccessKey: string | null;
  /** Path-style URLs (`<endpoint>/<bucket>/<key>`) instead of virtual-host ones; most self-hosted services need it. */
  forcePathStyle: boolean;
}

/** Where file bytes live (src/common/storage): `postgres` (default, no extra service) or an S3-compatible bucket. */
export type StorageConfig = { driver: 'postgres' } | ({ driver: 's3' } & S3StorageConfig);

export interface AppConfig {
  port: number;
  host: string;
  nodeEnv: NodeEnv;
  dataDir: string;
  /** null means: start the embedded PostgreSQL (launcher only). */
  databaseUrl: string | null;
  databasePoolSize: number;
  redisUrl: string;
  /** true when REDIS_URL was not given, so the launcher may start a local redis-server. */
  redisUrlDefaulted: boolean;
  sessionSecret: string;
  sessionTtlDays: number;
  defaultPlan: PlanName;
  allowLoopbackWebhooks: boolean;
  /** Master key for secrets at rest (SERVICE_ENCRYPTION_KEY; generated under DATA_DIR outside production); see SecretBox. */
  encryptionKey: string;
  migrationsRun: boolean;
  logLevel: string;
  /** Extra origins allowed to make cookie-authenticated writes (the service's own origin always is). */
  trustedOrigins: string[];
  /** Prefix for Bull queue keys; tests give each run its own. */
  queuePrefix: string;
  /** TRUST_PROXY: false, true (every hop), or the proxies to trust (addresses, CIDR ranges, `loopback`/`linklocal`/`uniquelocal`). */
  trustProxy: boolean | string[];
  /** Signup/login attempts allowed per client address per minute. */
  authRateLimitPerMinute: number;
  /** Failed logins allowed per account (whatever the client address) per `loginFailureWindowSeconds`. */
  loginFailuresPerAccount: number;
  loginFailureWindowSeconds: number;
  /** METRICS_TOKEN: the bearer token GET /metrics requires; null: /metrics is public outside production, 404 in production. */
  metricsToken: string | null;
  /** Invitations an organization may create per hour (INVITATION_RATE_LIMIT_PER_HOUR). */
  invitationRateLimitPerHour: number;
  /** SERVICE_PUBLIC_URL: the service's public origin (OAuth issuer; MCP resource = `<origin>/mcp`); null: taken from each request's host. */
  publicUrl: string | null;
  /** OAuth dynamic client registrations per client address per hour (OAUTH_REGISTRATION_RATE_LIMIT_PER_HOUR). */
  oauthRegistrationPerHour: number;
  /** OAuth token endpoint requests per client address per minute (OAUTH_TOKEN_RATE_LIMIT_PER_MINUTE). */
  oauthTokenPerMinute: number;
  /** Port of the embedded PostgreSQL (used only when DATABASE_URL is unset). */
  embeddedPgPort: number;
  /** Test-only: KPI HTTP sync runs go to this loopback origin (`http://127.0.0.1:<port>`) instead of the configured host. */
  kpiSyncTestOrigin: string | null;
  /** READ_CACHE (default on): keep computed read results (list pages, chain pages, audits) under data versions. Off: compute every request. */
  readCache: boolean;
  /** STRATEGY_AUDIT_CACHE_MAX_AGE_MS: how long a kept audit may be served (its findings depend on the clock). */
  strategyAuditCacheMaxAgeMs: number;
  /** WEBHOOK_DELIVERY_RETENTION_DAYS: finished (delivered or failed) webhook deliveries older than this are deleted by the worker. */
  webhookDeliveryRetentionDays: number;
  /** WEBHOOK_PAYLOAD_RETENTION_DAYS: bodies of delivered webhook deliveries are dropped this long after delivery (the row stays). */
  webhookPayloadRetentionDays: number;
  /** WEBHOOKS_PER_ORG_MAX: webhooks an organization may have (creating one more is 422 `webhook_limit_reached`). */
  webhooksPerOrgMax: number;
  /** HTTP_HEADERS_TIMEOUT_MS: the request line and headers must arrive within it (408). */
  httpHeadersTimeoutMs: number;
  /** HTTP_REQUEST_TIMEOUT_MS: the whole request, body included, must arrive within it (408). */
  httpRequestTimeoutMs: number;
  /** HTTP_BODY_TIMEOUT_MS: the longest pause allowed while a request body arrives (408). */
  httpBodyTimeoutMs: number;
  /** UPLOAD_MAX_CONCURRENT: attachment uploads one API process streams at once; more are 503. */
  uploadMaxConcurrent: number;
  /** STORAGE_DRIVER and the STORAGE_S3_* settings: where attachment bytes live, the same for the API and the worker. */
  storage: StorageConfig;
  /** SERVICE_GITHUB_API_URL: base URL of the GitHub REST API (operator configuration; a loopback URL is allowed for tests and proxies). */
  githubApiUrl: string;
  /** SERVICE_GITHUB_REQUIRED_CHECKS_READ_ENABLED (default off): delivery context reads required checks (rulesets and branch protection). */
  githubRequiredChecksReadEnabled: boolean;
  /** SERVICE_GITHUB_TIMEOUT_MS (default 10000): time limit of one GitHub API request. */
  githubTimeoutMs: number;
  /** SERVICE_VERCEL_API_URL: base URL of the Vercel REST API (deployment connections and callbacks). */
  vercelApiUrl: string;
  /** SERVICE_PROVIDER_TIMEOUT_MS: one provider API attempt must complete within it (retries on 5xx/429 come on top). */
  providerTimeoutMs: number;
  /** SERVICE_PROVIDER_RETRIES: further attempts after a 5xx, 429 or network failure of a provider API call. */
  providerRetries: number;
  /** The private inbox (src/modules/inbox); every part null/empty when not configured. */
  inbox: InboxConfig;
}

/** Inbound email (RESEND_WEBHOOK_SECRET, INBOX_MAILBOXES, INBOX_OPERATOR_MEMBER_IDS). */
export interface InboxConfig {
  /** Standard Webhooks secret (`whsec_…`) of the inbound email provider; null: intake refuses every request (404). */
  webhookSecret: string | null;
  /** Mailbox aliases in configuration order: the lowercased address and the organization whose inbox receives it. */
  mailboxes: { address: string; orgId: string }[];
  /** Member ids allowed to use the inbox API (fails closed: empty means nobody). */
  operatorMemberIds: string[];
}

/**
 * How long a kept strategy audit may be served (STRATEGY_AUDIT_CACHE_MAX_AGE_MS): the bound on how
 * late a finding that becomes due by time alone (stale, overdue, off pace) appears. Data changes
 * invalidate at once (data versions); see StrategyAuditHandler.
 */
export const DEFAULT_STRATEGY_AUDIT_CACHE_MAX_AGE_MS = 60_000;

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

const ENVS: NodeEnv[] = ['development', 'production', 'test'];
const PLANS: PlanName[] = ['unlimited', 'free'];
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

function bool(env: NodeJS.ProcessEnv, name: string, dflt: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return dflt;
  const v = raw.trim().toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(v)) return true;
  if (['0', 'false', 'no', 'off'].includes(v)) return false;
  throw new ConfigError(`${name} must be a boolean (1/0, true/false), got "${raw}"`);
}

function int(env: NodeJS.ProcessEnv, name: string, dflt: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return dflt;
  if (!/^\d+$/.test(raw.trim())) throw new ConfigError(`${name} must be an integer between ${min} and ${max}, got "${raw}"`);
  const n = Number(raw.trim());
  if (n < min || n > max) throw new ConfigError(`${name} must be an integer between ${min} and ${max}, got "${raw}"`);
  return n;
}

function oneOf<T extends string>(env: NodeJS.ProcessEnv, name: string, values: readonly T[], dflt: T): T {
  const raw = env[name];
  if (raw === undefined || raw === '') return dflt;
  const v = raw.trim() as T;
  if (!values.includes(v)) throw new ConfigError(`${name} must be one of ${values.join(', ')}, got "${raw}"`);
  return v;
}

function url(env: NodeJS.ProcessEnv, name: string, protocols: string[]): string | null {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return null;
  let parsed: URL;
  try {
    parsed = new URL(raw.trim());
  } catch {
    throw new ConfigError(`${name} must be a URL (${protocols.map((p) => `${p}//…`).join(' or ')}), got an unparsable value`);
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new ConfigError(`${name} must use ${protocols.join(' or ')}, got "${parsed.protocol}"`);
  }
  return raw.trim();
}

/**
 * A secret setting that production must give (at least 32 characters); in development and test it
 * is generated once and kept under DATA_DIR in `file` (SESSION_SECRET, SERVICE_ENCRYPTION_KEY).
 */
function generatedSecret(env: NodeJS.ProcessEnv, name: string, nodeEnv: NodeEnv, dataDir: string, fileName: string): string {
  const raw = env[name];
  if (raw !== undefined && raw !== '') {
    if (raw.length < 32) throw new ConfigError(`${name} must be at least 32 characters long`);
    return raw;
  }
  if (nodeEnv === 'production') throw new ConfigError(`${name} is required when NODE_ENV=production (at least 32 characters)`);
  const file = join(dataDir, fileName);
  const kept = keptSecret(file);
  if (kept) return kept;
  mkdirSync(dataDir, { recursive: true });
  return keepFirstSecret(file, randomBytes(48).toString('base64url'));
}

/** The secret kept in `file`, or null when there is none (or too short to be one). */
function keptSecret(file: string): string | null {
  if (!existsSync(file)) return null;
  const kept = readFileSync(file, 'utf8').trim();
  return kept.length >= 32 ? kept : null;
}

/**
 * Keeps `generated` in `file` unless another process kept its secret there first, and answers the
 * secret that is kept: processes started together on a new DATA_DIR (an API and a worker, test
 * files in parallel) all end up with one secret. The secret is written whole to a private file and
 * hard-linked into place, which fails when `file` exists, so a reader never sees half a secret and
 * a second writer never replaces the first. On a filesystem without hard links the file is created
 * exclusively instead (a reader that finds it still short waits for the writer, and one that stays
 * short is a ConfigError: there a cut file cannot be told from one being written). With hard links,
 * a file that holds no usable secret is replaced, and the secret then on disk is the one answered.
 * `link` is `linkSync` (tests pass one that refuses).
 */
export function keepFirstSecret(file: string, generated: string, link: (existing: string, created: string) => void = linkSync): string {
  const own = `${file}.${process.pid}.${randomBytes(6).toString('hex')}`;
  try {
    writeFileSync(own, `${generated}\n`, { mode: 0o600 });
    try {
      link(own, file);
      return generated;
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'EPERM' || code === 'ENOTSUP' || code === 'EOPNOTSUPP') return createExclusively(file, generated);
      if (code !== 'EEXIST') throw e;
    }
    const first = keptSecret(file);
    if (first) return first;
    renameSync(own, file); // an empty or cut file from an older version: replaced whole
    return keptSecret(file) ?? generated;
  } finally {
    rmSync(own, { force: true });
  }
}

/** Without hard links: create `file` only if it does not exist; a process that finds it reads it, waiting briefly for a writer still writing. */
function createExclusively(file: string, generated: string): string {
  try {
    writeFileSync(file, `${generated}\n`, { mode: 0o600, flag: 'wx' });
    return generated;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
  }
  for (let i = 0; i < 50; i++) {
    const kept = keptSecret(file);
    if (kept) return kept;
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
  }
  throw new ConfigError(`${file} holds no usable secret; delete it to have a new one generated`);
}

const PROXY_KEYWORDS = ['loopback', 'linklocal', 'uniquelocal'];
const isIp = (a: string) => ipaddr.IPv4.isValidFourPartDecimal(a) || ipaddr.IPv6.isValid(a);

/**
 * TRUST_PROXY: a boolean, or a comma-separated list of the proxies in front of the API (addresses,
 * CIDR ranges, `loopback`, `linklocal`, `uniquelocal`). With a list the client address is the
 * right-most X-Forwarded-For entry not added by a listed proxy, so a client cannot choose it.
 */
function trustProxy(env: NodeJS.ProcessEnv): boolean | string[] {
  const raw = env.TRUST_PROXY?.trim() ?? '';
  if (raw === '') return false;
  if (/^(1|0|true|false|yes|no|on|off)$/i.test(raw)) return bool(env, 'TRUST_PROXY', false);
  const entries = raw.split(',').map((e) => e.trim());
  for (const e of entries) {
    const [addr, bits, extra] = e.split('/');
    const ok = PROXY_KEYWORDS.includes(e) || (isIp(addr) && extra === undefined && (bits === undefined || isValidCidr(e)));
    if (!ok) {
      throw new ConfigError(
        `TRUST_PROXY must be a boolean or a comma-separated list of proxy addresses or CIDR ranges (or loopback, linklocal, uniquelocal), got "${e}"`,
      );
    }
  }
  return entries;
}

function isValidCidr(cidr: string): boolean {
  try {
    ipaddr.parseCIDR(cidr);
    return true;
  } catch {
    return false;
  }
}

/** SERVICE_KPI_SYNC_TEST_ORIGIN: `http://127.0.0.1:<port>` (or [::1]) only, never in production. */
function kpiSyncTestOrigin(env: NodeJS.ProcessEnv, nodeEnv: NodeEnv): string | null {
  const raw = env.SERVICE_KPI_SYNC_TEST_ORIGIN?.trim();
  if (!raw) return null;
  if (nodeEnv === 'production') throw new ConfigError('SERVICE_KPI_SYNC_TEST_ORIGIN cannot be set when NODE_ENV=production');
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw new ConfigError(`SERVICE_KPI_SYNC_TEST_ORIGIN must be a loopback origin http://127.0.0.1:<port>, got "${raw}"`);
  }
  if (u.protocol !== 'http:' || !['127.0.0.1', '[::1]'].includes(u.hostname) || !u.port || u.pathname !== '/' || u.search || u.hash || u.username) {
    throw new ConfigError(`SERVICE_KPI_SYNC_TEST_ORIGIN must be a loopback origin http://127.0.0.1:<port>, got "${raw}"`);
  }
  return u.origin;
}

/** METRICS_TOKEN: at least 32 characters when set. */
function metricsToken(env: NodeJS.ProcessEnv): string | null {
  const raw = env.METRICS_TOKEN;
  if (raw === undefined || raw === '') return null;
  if (raw.length < 32) throw new ConfigError('METRICS_TOKEN must be at least 32 characters long');
  return raw;
}

const STORAGE_DRIVERS = ['postgres', 's3'] as const;
const S3_SETTINGS = [
  'STORAGE_S3_BUCKET',
  'STORAGE_S3_REGION',
  'STORAGE_S3_ENDPOINT',
  'STORAGE_S3_ACCESS_KEY_ID',
  'STORAGE_S3_SECRET_ACCESS_KEY',
  'STORAGE_S3_FORCE_PATH_STYLE',
];
/** S3 bucket naming rules (3..63 characters: lower-case letters, digits, dots, hyphens; starts and ends with a letter or digit). */
const BUCKET_RE = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
const REGION_RE = /^[a-z0-9][a-z0-9-]{0,62}$/;

/**
 * STORAGE_DRIVER (`postgres` by default) and, for `s3`, STORAGE_S3_BUCKET (required), _REGION
 * (us-east-1), _ENDPOINT (http(s) URL; unset = AWS), _ACCESS_KEY_ID and _SECRET_ACCESS_KEY (both or
 * neither; neither = the SDK's default chain), _FORCE_PATH_STYLE (off). S3 settings with another
 * driver stop the boot: they would be silently ignored, and files would go elsewhere than meant.
 */
function storage(env: NodeJS.ProcessEnv): StorageConfig {
  const driver = oneOf(env, 'STORAGE_DRIVER', STORAGE_DRIVERS, 'postgres');
  const given = S3_SETTINGS.filter((n) => (env[n] ?? '').trim() !== '');
  if (driver !== 's3') {
    if (given.length)
      throw new ConfigError(`${given.join(', ')} ${given.length > 1 ? 'are' : 'is'} set but STORAGE_DRIVER is ${driver}: set STORAGE_DRIVER=s3 or unset them`);
    return { driver };
  }
  const bucket = env.STORAGE_S3_BUCKET?.trim() ?? '';
  if (!bucket) throw new ConfigError('STORAGE_S3_BUCKET is required when STORAGE_DRIVER=s3');
  if (!BUCKET_RE.test(bucket) || bucket.includes('..'))
    throw new ConfigError(`STORAGE_S3_BUCKET must be a valid bucket name (3..63 lower-case letters, digits, dots, hyphens), got "${bucket}"`);
  const region = env.STORAGE_S3_REGION?.trim() || 'us-east-1';
  if (!REGION_RE.test(region)) throw new ConfigError(`STORAGE_S3_REGION must be a region name like eu-central-1, got "${region}"`);
  const endpoint = url(env, 'STORAGE_S3_ENDPOINT', ['http:', 'https:']);
  const accessKeyId = env.STORAGE_S3_ACCESS_KEY_ID?.trim() || null;
  const secretAccessKey = env.STORAGE_S3_SECRET_ACCESS_KEY || null;
  if ((accessKeyId === null) !== (secretAccessKey === null)) {
    throw new ConfigError(
      'STORAGE_S3_ACCESS_KEY_ID and STORAGE_S3_SECRET_ACCESS_KEY go together: set both, or neither to use the AWS default credential chain',
    );
  }
  return { driver, bucket, region, endpoint, accessKeyId, secretAccessKey, forcePathStyle: bool(env, 'STORAGE_S3_FORCE_PATH_STYLE', false) };
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const nodeEnv = oneOf(env, 'NODE_ENV', ENVS, 'development');
  const dataDirRaw = env.DATA_DIR?.trim() || './.data';
  const dataDir = isAbsolute(dataDirRaw) ? dataDirRaw : resolve(process.cwd(), dataDirRaw);
  // before any generated secret is written there: never inside a checkout unless .gitignore ignores it
  const dataDirRefusal = dataDirProblem(dataDir);
  if (dataDirRefusal) throw new ConfigError(dataDirRefusal);
  const databaseUrl = url(env, 'DATABASE_URL', ['postgres:', 'postgresql:']);
  const redisRaw = url(env, 'REDIS_URL', ['redis:', 'rediss:']);
  const allowLoopbackWebhooks = bool(env, 'SERVICE_ALLOW_LOOPBACK_WEBHOOKS', false);
  if (allowLoopbackWebhooks && nodeEnv === 'production') {
    throw new ConfigError('SERVICE_ALLOW_LOOPBACK_WEBHOOKS cannot be enabled when NODE_ENV=production');
  }
  const logLevel = oneOf(env, 'LOG_LEVEL', LOG_LEVELS, nodeEnv === 'test' ? 'warn' : 'info');
  const trustedOrigins = (env.SERVICE_TRUSTED_ORIGINS ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((o) => {
      try {
        return new URL(o).origin;
      } catch {
        throw new ConfigError(`SERVICE_TRUSTED_ORIGINS must be a comma-separated list of origins, got "${o}"`);
      }
    });
  const httpHeadersTimeoutMs = int(env, 'HTTP_HEADERS_TIMEOUT_MS', 20_000, 100, 600_000);
  const httpRequestTimeoutMs = int(env, 'HTTP_REQUEST_TIMEOUT_MS', 120_000, 100, 3_600_000);
  if (httpHeadersTimeoutMs > httpRequestTimeoutMs) {
    throw new ConfigError(`HTTP_HEADERS_TIMEOUT_MS (${httpHeadersTimeoutMs}) must not exceed HTTP_REQUEST_TIMEOUT_MS (${httpRequestTimeoutMs})`);
  }
  return {
    port: int(env, 'PORT', 3000, 0, 65535),
    host: env.HOST?.trim() || '0.0.0.0',
    nodeEnv,
    dataDir,
    databaseUrl,
    databasePoolSize: int(env, 'DATABASE_POOL_SIZE', 20, 1, 500),
    redisUrl: redisRaw ?? 'redis://127.0.0.1:6379',
    redisUrlDefaulted: redisRaw === null,
    sessionSecret: generatedSecret(env, 'SESSION_SECRET', nodeEnv, dataDir, 'session-secret'),
    sessionTtlDays: int(env, 'SESSION_TTL_DAYS', 30, 1, 365),
    defaultPlan: oneOf(env, 'SERVICE_DEFAULT_PLAN', PLANS, 'unlimited'),
    allowLoopbackWebhooks,
    encryptionKey: generatedSecret(env, 'SERVICE_ENCRYPTION_KEY', nodeEnv, dataDir, 'encryption-key'),
    migrationsRun: bool(env, 'MIGRATIONS_RUN', true),
    logLevel,
    trustedOrigins,
    queuePrefix: env.QUEUE_PREFIX?.trim() || 'bull',
    trustProxy: trustProxy(env),
    authRateLimitPerMinute: int(env, 'AUTH_RATE_LIMIT_PER_MINUTE', 60, 1, 1_000_000),
    loginFailuresPerAccount: int(env, 'AUTH_LOGIN_FAILURES_PER_ACCOUNT', 10, 1, 1_000_000),
    loginFailureWindowSeconds: int(env, 'AUTH_LOGIN_FAILURE_WINDOW_SECONDS', 900, 1, 86_400),
    metricsToken: metricsToken(env),
    invitationRateLimitPerHour: int(env, 'INVITATION_RATE_LIMIT_PER_HOUR', 50, 1, 1_000_000),
    publicUrl: url(env, 'SERVICE_PUBLIC_URL', ['http:', 'https:'])?.replace(/\/+$/, '') ?? null,
    oauthRegistrationPerHour: int(env, 'OAUTH_REGISTRATION_RATE_LIMIT_PER_HOUR', 30, 1, 1_000_000),
    oauthTokenPerMinute: int(env, 'OAUTH_TOKEN_RATE_LIMIT_PER_MINUTE', 60, 1, 1_000_000),
    embeddedPgPort: int(env, 'EMBEDDED_PG_PORT', 54329, 1, 65535),
    kpiSyncTestOrigin: kpiSyncTestOrigin(env, nodeEnv),
    readCache: bool(env, 'READ_CACHE', true),
    strategyAuditCacheMaxAgeMs: int(env, 'STRATEGY_AUDIT_CACHE_MAX_AGE_MS', DEFAULT_STRATEGY_AUDIT_CACHE_MAX_AGE_MS, 1, 3_600_000),
    webhookDeliveryRetentionDays: int(env, 'WEBHOOK_DELIVERY_RETENTION_DAYS', 30, 1, 3650),
    webhookPayloadRetentionDays: int(env, 'WEBHOOK_PAYLOAD_RETENTION_DAYS', 7, 1, 3650),
    webhooksPerOrgMax: int(env, 'WEBHOOKS_PER_ORG_MAX', 25, 1, 10_000),
    httpHeadersTimeoutMs,
    httpRequestTimeoutMs,
    httpBodyTimeoutMs: int(env, 'HTTP_BODY_TIMEOUT_MS', 30_000, 100, 3_600_000),
    uploadMaxConcurrent: int(env, 'UPLOAD_MAX_CONCURRENT', 16, 1, 10_000),
    storage: storage(env),
    vercelApiUrl: (url(env, 'SERVICE_VERCEL_API_URL', ['http:', 'https:']) ?? 'https://api.vercel.com').replace(/\/+$/, ''),
    providerTimeoutMs: int(env, 'SERVICE_PROVIDER_TIMEOUT_MS', 10_000, 50, 120_000),
    providerRetries: int(env, 'SERVICE_PROVIDER_RETRIES', 2, 0, 5),
    inbox: inboxConfig(env),
    githubApiUrl: (url(env, 'SERVICE_GITHUB_API_URL', ['http:', 'https:']) ?? 'https://api.github.com').replace(/\/+$/, ''),
    githubRequiredChecksReadEnabled: bool(env, 'SERVICE_GITHUB_REQUIRED_CHECKS_READ_ENABLED', false),
    githubTimeoutMs: int(env, 'SERVICE_GITHUB_TIMEOUT_MS', 10_000, 100, 60_000),
  };
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ADDRESS_RE = /^[^\s@<>(),;:"]{1,64}@[a-z0-9.-]{1,253}$/i;

/** INBOX_MAILBOXES=`alias@domain=<org uuid>,…`; INBOX_OPERATOR_MEMBER_IDS=`<member uuid>,…`. */
function inboxConfig(env: NodeJS.ProcessEnv): InboxConfig {
  const secret = env.RESEND_WEBHOOK_SECRET?.trim() || null;
  if (secret !== null && !/^whsec_[A-Za-z0-9+/=]{16,}$/.test(secret))
    throw new ConfigError('RESEND_WEBHOOK_SECRET must be a Standard Webhooks secret (whsec_ followed by base64)');
  const list = (name: string) =>
    (env[name] ?? '')
      .split(',')
      .map((e) => e.trim())
      .filter(Boolean);
  const mailboxes = list('INBOX_MAILBOXES').map((entry) => {
    const [address, orgId, extra] = entry.split('=').map((x) => x.trim());
    if (extra !== undefined || !address || !ADDRESS_RE.test(address) || !orgId || !UUID_RE.test(orgId)) {
      throw new ConfigError(`INBOX_MAILBOXES must be a comma-separated list of address=<organization uuid>, got "${entry}"`);
    }
    return { address: address.toLowerCase(), orgId: orgId.toLowerCase() };
  });
  const operatorMemberIds = list('INBOX_OPERATOR_MEMBER_IDS').map((id) => {
    if (!UUID_RE.test(id)) throw new ConfigError(`INBOX_OPERATOR_MEMBER_IDS must be a comma-separated list of member uuids, got "${id}"`);
    return id.toLowerCase();
  });
  return { webhookSecret: secret, mailboxes, operatorMemberIds };
}

/** Loads the configuration or exits with the one clear message (used by the process entry points). */
export function loadConfigOrExit(env: NodeJS.ProcessEnv = process.env): AppConfig {
  try {
    return loadConfig(env);
  } catch (e) {
    if (e instanceof ConfigError) {
      process.stderr.write(`Configuration error: ${e.message}\n`);
      process.exit(78);
    }
    throw e;
  }
}

export const APP_CONFIG = Symbol('APP_CONFIG');
