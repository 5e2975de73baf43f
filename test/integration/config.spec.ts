import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ConfigError, keepFirstSecret, loadConfig } from '../../src/config/config';

/** loadConfig() is the only reader of process.env: defaults, one clear error per bad value, the kept dev secret. */
describe('configuration (loadConfig)', () => {
  let dataDir: string;
  const secret = 's'.repeat(40);
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'service-config-'));
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  it('defaults: port 3000, development, plan unlimited, loopback webhooks off, local Redis, migrations on', () => {
    const c = loadConfig({ DATA_DIR: dataDir });
    expect(c).toMatchObject({
      port: 3000,
      host: '0.0.0.0',
      nodeEnv: 'development',
      dataDir,
      databaseUrl: null,
      databasePoolSize: 20,
      redisUrl: 'redis://127.0.0.1:6379',
      redisUrlDefaulted: true,
      defaultPlan: 'unlimited',
      allowLoopbackWebhooks: false,
      migrationsRun: true,
      logLevel: 'info',
      trustProxy: false,
      embeddedPgPort: 54329,
      readCache: true,
    });
    expect(c.sessionSecret.length).toBeGreaterThanOrEqual(32);
  });

  it('READ_CACHE: on by default, off with a boolean word, anything else stops the boot', () => {
    expect(loadConfig({ DATA_DIR: dataDir, READ_CACHE: 'off' }).readCache).toBe(false);
    expect(loadConfig({ DATA_DIR: dataDir, READ_CACHE: 'on' }).readCache).toBe(true);
    expect(() => loadConfig({ DATA_DIR: dataDir, READ_CACHE: 'sometimes' })).toThrow(ConfigError);
  });

  it('webhook limits: 30 days of history, 7 days of delivered payloads, 25 webhooks per organization; integers in range or the boot stops', () => {
    expect(loadConfig({ DATA_DIR: dataDir })).toMatchObject({ webhookDeliveryRetentionDays: 30, webhookPayloadRetentionDays: 7, webhooksPerOrgMax: 25 });
    expect(
      loadConfig({ DATA_DIR: dataDir, WEBHOOK_DELIVERY_RETENTION_DAYS: '90', WEBHOOK_PAYLOAD_RETENTION_DAYS: '1', WEBHOOKS_PER_ORG_MAX: '100' }),
    ).toMatchObject({ webhookDeliveryRetentionDays: 90, webhookPayloadRetentionDays: 1, webhooksPerOrgMax: 100 });
    for (const [name, value] of [
      ['WEBHOOK_DELIVERY_RETENTION_DAYS', '0'],
      ['WEBHOOK_DELIVERY_RETENTION_DAYS', 'forever'],
      ['WEBHOOK_PAYLOAD_RETENTION_DAYS', '-1'],
      ['WEBHOOK_PAYLOAD_RETENTION_DAYS', '3651'],
      ['WEBHOOKS_PER_ORG_MAX', '0'],
      ['WEBHOOKS_PER_ORG_MAX', '2.5'],
    ]) {
      expect(() => loadConfig({ DATA_DIR: dataDir, [name]: value })).toThrow(ConfigError);
      expect(() => loadConfig({ DATA_DIR: dataDir, [name]: value })).toThrow(name);
    }
  });

  it('STORAGE_DRIVER: postgres by default; s3 needs a bucket, takes region, endpoint, credentials (both or neither) and path style; S3 settings with another driver stop the boot', () => {
    expect(loadConfig({ DATA_DIR: dataDir }).storage).toEqual({ driver: 'postgres' });
    expect(loadConfig({ DATA_DIR: dataDir, STORAGE_DRIVER: 'postgres' }).storage).toEqual({ driver: 'postgres' });
    expect(loadConfig({ DATA_DIR: dataDir, STORAGE_DRIVER: 's3', STORAGE_S3_BUCKET: 'files' }).storage).toEqual({
      driver: 's3',
      bucket: 'files',
      region: 'us-east-1',
      endpoint: null,
      accessKeyId: null,
      secretAccessKey: null,
      forcePathStyle: false,
    });
    const full = {
      DATA_DIR: dataDir,
      STORAGE_DRIVER: 's3',
      STORAGE_S3_BUCKET: 'my.files-1',
      STORAGE_S3_REGION: 'eu-central-1',
      STORAGE_S3_ENDPOINT: 'http://127.0.0.1:9000',
      STORAGE_S3_ACCESS_KEY_ID: 'AKIA1',
      STORAGE_S3_SECRET_ACCESS_KEY: 'secret',
      STORAGE_S3_FORCE_PATH_STYLE: 'true',
    };
    expect(loadConfig(full).storage).toEqual({
      driver: 's3',
      bucket: 'my.files-1',
      region: 'eu-central-1',
      endpoint: 'http://127.0.0.1:9000',
      accessKeyId: 'AKIA1',
      secretAccessKey: 'secret',
      forcePathStyle: true,
    });
    for (const [bad, name] of [
      [{ STORAGE_DRIVER: 'disk' }, 'STORAGE_DRIVER'],
      [{ STORAGE_DRIVER: 's3' }, 'STORAGE_S3_BUCKET'],
      [{ STORAGE_DRIVER: 's3', STORAGE_S3_BUCKET: 'Bad_Bucket' }, 'STORAGE_S3_BUCKET'],
      [{ STORAGE_DRIVER: 's3', STORAGE_S3_BUCKET: 'ok-bucket', STORAGE_S3_REGION: 'EU Central' }, 'STORAGE_S3_REGION'],
      [{ STORAGE_DRIVER: 's3', STORAGE_S3_BUCKET: 'ok-bucket', STORAGE_S3_ENDPOINT: 'ftp://host' }, 'STORAGE_S3_ENDPOINT'],
      [{ STORAGE_DRIVER: 's3', STORAGE_S3_BUCKET: 'ok-bucket', STORAGE_S3_ACCESS_KEY_ID: 'AKIA1' }, 'STORAGE_S3_SECRET_ACCESS_KEY'],
      [{ STORAGE_DRIVER: 's3', STORAGE_S3_BUCKET: 'ok-bucket', STORAGE_S3_FORCE_PATH_STYLE: 'maybe' }, 'STORAGE_S3_FORCE_PATH_STYLE'],
      [{ STORAGE_S3_BUCKET: 'ok-bucket' }, 'STORAGE_S3_BUCKET'],
    ] as Array<[Record<string, string>, string]>) {
      expect(() => loadConfig({ DATA_DIR: dataDir, ...bad })).toThrow(ConfigError);
      expect(() => loadConfig({ DATA_DIR: dataDir, ...bad })).toThrow(name);
    }
  });

  it('HTTP timeouts and the upload bound: defaults, explicit values, headers within the request timeout, bad values stop the boot', () => {
    expect(loadConfig({ DATA_DIR: dataDir })).toMatchObject({
      httpHeadersTimeoutMs: 20_000,
      httpRequestTimeoutMs: 120_000,
      httpBodyTimeoutMs: 30_000,
      uploadMaxConcurrent: 16,
    });
    const env = { DATA_DIR: dataDir, HTTP_HEADERS_TIMEOUT_MS: '500', HTTP_REQUEST_TIMEOUT_MS: '3000', HTTP_BODY_TIMEOUT_MS: '700', UPLOAD_MAX_CONCURRENT: '2' };
    expect(loadConfig(env)).toMatchObject({ httpHeadersTimeoutMs: 500, httpRequestTimeoutMs: 3000, httpBodyTimeoutMs: 700, uploadMaxConcurrent: 2 });
    for (const bad of [
      { HTTP_HEADERS_TIMEOUT_MS: '0' },
      { HTTP_REQUEST_TIMEOUT_MS: 'soon' },
      { HTTP_BODY_TIMEOUT_MS: '-1' },
      { UPLOAD_MAX_CONCURRENT: '0' },
      { HTTP_HEADERS_TIMEOUT_MS: '60000', HTTP_REQUEST_TIMEOUT_MS: '30000' },
    ]) {
      expect(() => loadConfig({ DATA_DIR: dataDir, ...bad })).toThrow(ConfigError);
    }
    expect(() => loadConfig({ DATA_DIR: dataDir, HTTP_HEADERS_TIMEOUT_MS: '60000', HTTP_REQUEST_TIMEOUT_MS: '30000' })).toThrow(/HTTP_HEADERS_TIMEOUT_MS/);
  });

  it('DATA_DIR defaults to ./.data under the working directory; relative values are resolved', () => {
    expect(loadConfig({ SESSION_SECRET: secret, SERVICE_ENCRYPTION_KEY: secret }).dataDir).toBe(resolve(process.cwd(), '.data'));
    expect(loadConfig({ SESSION_SECRET: secret, SERVICE_ENCRYPTION_KEY: secret, DATA_DIR: 'some/dir' }).dataDir).toBe(resolve(process.cwd(), 'some/dir'));
  });

  it('accepts valid explicit values', () => {
    const c = loadConfig({
      DATA_DIR: dataDir,
      PORT: '8080',
      NODE_ENV: 'production',
      SESSION_SECRET: secret,
      SERVICE_ENCRYPTION_KEY: `${secret}-webhooks`,
      DATABASE_URL: 'postgresql://u:p@db:5432/app',
      REDIS_URL: 'rediss://cache:6380/2',
      SERVICE_DEFAULT_PLAN: 'free',
      SERVICE_ALLOW_LOOPBACK_WEBHOOKS: '0',
      LOG_LEVEL: 'debug',
    });
    expect(c).toMatchObject({
      port: 8080,
      nodeEnv: 'production',
      sessionSecret: secret,
      encryptionKey: `${secret}-webhooks`,
      databaseUrl: 'postgresql://u:p@db:5432/app',
      redisUrl: 'rediss://cache:6380/2',
      redisUrlDefaulted: false,
      defaultPlan: 'free',
      allowLoopbackWebhooks: false,
      logLevel: 'debug',
    });
    expect(loadConfig({ DATA_DIR: dataDir, NODE_ENV: 'test', SERVICE_ALLOW_LOOPBACK_WEBHOOKS: 'true' }).allowLoopbackWebhooks).toBe(true);
  });

  it('login limits: 10 failed logins per account per 900 s by default, configurable', () => {
    expect(loadConfig({ DATA_DIR: dataDir })).toMatchObject({ loginFailuresPerAccount: 10, loginFailureWindowSeconds: 900 });
    const c = loadConfig({ DATA_DIR: dataDir, AUTH_LOGIN_FAILURES_PER_ACCOUNT: '3', AUTH_LOGIN_FAILURE_WINDOW_SECONDS: '60' });
    expect(c).toMatchObject({ loginFailuresPerAccount: 3, loginFailureWindowSeconds: 60 });
  });

  it('TRUST_PROXY: off by default; a boolean, or the proxies to trust (addresses, CIDR ranges, loopback/linklocal/uniquelocal)', () => {
    expect(loadConfig({ DATA_DIR: dataDir, TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ DATA_DIR: dataDir, TRUST_PROXY: 'off' }).trustProxy).toBe(false);
    expect(loadConfig({ DATA_DIR: dataDir, TRUST_PROXY: 'loopback, 10.0.0.0/8,192.168.1.7 , fd00::/8' }).trustProxy).toEqual([
      'loopback',
      '10.0.0.0/8',
      '192.168.1.7',
      'fd00::/8',
    ]);
  });

  it('METRICS_TOKEN: unset by default; at least 32 characters', () => {
    expect(loadConfig({ DATA_DIR: dataDir }).metricsToken).toBeNull();
    expect(loadConfig({ DATA_DIR: dataDir, METRICS_TOKEN: 'm'.repeat(32) }).metricsToken).toBe('m'.repeat(32));
  });

  const bad: Array<[string, Record<string, string>, RegExp]> = [
    ['PORT=abc', { PORT: 'abc' }, /PORT/],
    ['PORT=70000', { PORT: '70000' }, /PORT/],
    ['DATABASE_URL=mysql://x', { DATABASE_URL: 'mysql://x' }, /DATABASE_URL/],
    ['DATABASE_URL unparsable', { DATABASE_URL: 'not a url' }, /DATABASE_URL/],
    ['REDIS_URL=http://x', { REDIS_URL: 'http://x' }, /REDIS_URL/],
    ['SERVICE_DEFAULT_PLAN=gold', { SERVICE_DEFAULT_PLAN: 'gold' }, /SERVICE_DEFAULT_PLAN/],
    ['NODE_ENV=staging', { NODE_ENV: 'staging' }, /NODE_ENV/],
    ['SERVICE_ALLOW_LOOPBACK_WEBHOOKS=maybe', { SERVICE_ALLOW_LOOPBACK_WEBHOOKS: 'maybe' }, /SERVICE_ALLOW_LOOPBACK_WEBHOOKS/],
    ['loopback webhooks in production', { NODE_ENV: 'production', SERVICE_ALLOW_LOOPBACK_WEBHOOKS: '1' }, /SERVICE_ALLOW_LOOPBACK_WEBHOOKS.*production/],
    ['LOG_LEVEL=loud', { LOG_LEVEL: 'loud' }, /LOG_LEVEL/],
    ['AUTH_LOGIN_FAILURES_PER_ACCOUNT=0', { AUTH_LOGIN_FAILURES_PER_ACCOUNT: '0' }, /AUTH_LOGIN_FAILURES_PER_ACCOUNT/],
    ['AUTH_LOGIN_FAILURE_WINDOW_SECONDS=1h', { AUTH_LOGIN_FAILURE_WINDOW_SECONDS: '1h' }, /AUTH_LOGIN_FAILURE_WINDOW_SECONDS/],
    ['TRUST_PROXY=maybe', { TRUST_PROXY: 'maybe' }, /TRUST_PROXY/],
    ['TRUST_PROXY with a bad range', { TRUST_PROXY: 'loopback,10.0.0.0/33' }, /TRUST_PROXY/],
    ['TRUST_PROXY=2 (hop counts are not taken)', { TRUST_PROXY: '2' }, /TRUST_PROXY/],
    ['METRICS_TOKEN too short', { METRICS_TOKEN: 'short' }, /METRICS_TOKEN.*32/],
  ];
  it.each(bad)('%s is refused with a ConfigError naming the variable', (_label, env, message) => {
    const load = () => loadConfig({ DATA_DIR: dataDir, SESSION_SECRET: secret, ...env });
    expect(load).toThrow(ConfigError);
    expect(load).toThrow(message);
  });

  it('SERVICE_ENCRYPTION_KEY: required in production, at least 32 characters, generated once under DATA_DIR elsewhere', () => {
    expect(() => loadConfig({ DATA_DIR: dataDir, NODE_ENV: 'production', SESSION_SECRET: secret })).toThrow(/SERVICE_ENCRYPTION_KEY/);
    expect(() => loadConfig({ DATA_DIR: dataDir, SESSION_SECRET: secret, SERVICE_ENCRYPTION_KEY: 'short' })).toThrow(/SERVICE_ENCRYPTION_KEY/);
    const first = loadConfig({ DATA_DIR: dataDir, SESSION_SECRET: secret }).encryptionKey;
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(loadConfig({ DATA_DIR: dataDir, SESSION_SECRET: secret }).encryptionKey).toBe(first);
  });

  it('production without SESSION_SECRET is refused', () => {
    const load = () => loadConfig({ DATA_DIR: dataDir, NODE_ENV: 'production', DATABASE_URL: 'postgres://x/y' });
    expect(load).toThrow(ConfigError);
    expect(load).toThrow(/SESSION_SECRET/);
  });

  it('a SESSION_SECRET shorter than 32 characters is refused (in every environment)', () => {
    for (const NODE_ENV of ['production', 'development', 'test']) {
      const load = () => loadConfig({ DATA_DIR: dataDir, NODE_ENV, SESSION_SECRET: 'x'.repeat(31) });
      expect(load).toThrow(ConfigError);
      expect(load).toThrow(/SESSION_SECRET/);
    }
    expect(
      loadConfig({ DATA_DIR: dataDir, NODE_ENV: 'production', SESSION_SECRET: 'x'.repeat(32), SERVICE_ENCRYPTION_KEY: 'y'.repeat(32) }).sessionSecret,
    ).toBe('x'.repeat(32));
  });

  it('development: SESSION_SECRET is generated once under DATA_DIR (mode 600) and reused', () => {
    const first = loadConfig({ DATA_DIR: dataDir }).sessionSecret;
    const file = join(dataDir, 'session-secret');
    expect(readFileSync(file, 'utf8').trim()).toBe(first);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(loadConfig({ DATA_DIR: dataDir }).sessionSecret).toBe(first);
    expect(loadConfig({ DATA_DIR: dataDir, NODE_ENV: 'test' }).sessionSecret).toBe(first);
    const other = mkdtempSync(join(tmpdir(), 'service-config-'));
    try {
      expect(loadConfig({ DATA_DIR: other }).sessionSecret).not.toBe(first);
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
    // An explicit secret wins over the kept one.
    expect(loadConfig({ DATA_DIR: dataDir, SESSION_SECRET: secret }).sessionSecret).toBe(secret);
  });

  it('a generated secret is kept by the first process to write it: a later writer answers the kept one and replaces nothing', () => {
    const file = join(dataDir, 'session-secret');
    const first = 'a'.repeat(64);
    const second = 'b'.repeat(64);
    expect(keepFirstSecret(file, first)).toBe(first);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    // another process generated its own secret before it saw the file (the race of processes started together)
    expect(keepFirstSecret(file, second)).toBe(first);
    expect(readFileSync(file, 'utf8').trim()).toBe(first);
    expect(loadConfig({ DATA_DIR: dataDir }).sessionSecret).toBe(first);
    // nothing of the writers is left beside it
    expect(readdirSync(dataDir).filter((f) => f.startsWith('session-secret'))).toEqual(['session-secret']);
    // a file without a usable secret (empty, cut short) is replaced whole
    writeFileSync(file, 'short\n');
    expect(keepFirstSecret(file, second)).toBe(second);
    expect(readFileSync(file, 'utf8').trim()).toBe(second);
    expect(readdirSync(dataDir).filter((f) => f.startsWith('session-secret'))).toEqual(['session-secret']);
  });

  it('where hard links are refused, the first writer creates the file exclusively and later writers read it; a file without a secret is an error, not replaced', () => {
    const file = join(dataDir, 'session-secret');
    const first = 'c'.repeat(64);
    const second = 'd'.repeat(64);
    const refused = (code: string) => () => {
      throw Object.assign(new Error(`${code}: link refused`), { code });
    };
    expect(keepFirstSecret(file, first, refused('EPERM'))).toBe(first);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(keepFirstSecret(file, second, refused('ENOTSUP'))).toBe(first);
    expect(keepFirstSecret(file, second, refused('EOPNOTSUPP'))).toBe(first);
    expect(readFileSync(file, 'utf8').trim()).toBe(first);
    expect(readdirSync(dataDir).filter((f) => f.startsWith('session-secret'))).toEqual(['session-secret']);
    // without links a reader cannot tell a cut file from one still being written: it waits, then says what to do
    writeFileSync(file, 'short\n');
    expect(() => keepFirstSecret(file, second, refused('EPERM'))).toThrow(ConfigError);
    expect(() => keepFirstSecret(file, second, refused('EPERM'))).toThrow(/holds no usable secret; delete it/);
    expect(readFileSync(file, 'utf8').trim()).toBe('short');
    // any other failure of the link is not swallowed
    rmSync(file);
    expect(() => keepFirstSecret(file, second, refused('EIO'))).toThrow(/EIO/);
    expect(readdirSync(dataDir).filter((f) => f.startsWith('session-secret'))).toEqual([]);
  });
});

/**
 * DATA_DIR holds the generated secrets (session-secret, encryption-key, the embedded PostgreSQL
 * password), database files and uploads: inside a git checkout it must be a folder the checkout's
 * .gitignore ignores, or the boot stops before anything is written (docs/DECISIONS.md "Operations").
 */
describe('configuration: DATA_DIR inside a git checkout', () => {
  let checkout: string;
  const outside: string[] = [];
  beforeEach(() => {
    checkout = mkdtempSync(join(tmpdir(), 'service-checkout-'));
    mkdirSync(join(checkout, '.git'));
    writeFileSync(
      join(checkout, '.gitignore'),
      ['# local state', 'node_modules', '.data/', '/ignored/', 'deep/nested', 'tmp-*', 'reincluded/', '!reincluded/', ''].join('\n'),
    );
  });
  afterEach(() => {
    rmSync(checkout, { recursive: true, force: true });
    for (const d of outside.splice(0)) rmSync(d, { recursive: true, force: true });
  });
  const refused = (dir: string, env: Record<string, string> = {}) => {
    const load = () => loadConfig({ DATA_DIR: dir, ...env });
    expect(load).toThrow(ConfigError);
    expect(load).toThrow(/DATA_DIR .*inside the git checkout .*not ignored by its \.gitignore/);
    expect(load).toThrow(/outside the checkout|\.gitignore/);
    expect(existsSync(join(dir, 'session-secret'))).toBe(false); // refused before anything is written
    expect(existsSync(join(dir, 'encryption-key'))).toBe(false);
  };

  it('a folder the root .gitignore ignores (itself or a parent, literal entries) is accepted and gets the generated secrets', () => {
    for (const dir of ['.data', 'ignored/sub', 'deep/nested', 'node_modules/.cache/x', 'src/node_modules']) {
      const c = loadConfig({ DATA_DIR: join(checkout, dir) });
      expect(c.dataDir).toBe(join(checkout, dir));
      expect(readFileSync(join(checkout, dir, 'session-secret'), 'utf8').trim()).toBe(c.sessionSecret);
    }
  });

  it('any other folder inside the checkout stops the boot with a ConfigError naming DATA_DIR and what to do', () => {
    refused(join(checkout, 'src', 'data'));
    refused(join(checkout, 'deep')); // only deep/nested is ignored
    refused(join(checkout, 'sub', 'ignored')); // "/ignored/" is anchored at the root
    refused(join(checkout, 'reincluded')); // re-included by a later "!" line
    refused(join(checkout, 'tmp-1')); // wildcard entries are not evaluated: list the folder literally
    refused(checkout); // the checkout itself
    const err = (() => {
      try {
        loadConfig({ DATA_DIR: join(checkout, 'src', 'data') });
      } catch (e) {
        return e as Error;
      }
    })();
    expect(err?.message).toContain(`add "src/data/" to ${join(checkout, '.gitignore')}`);
  });

  it('the refusal holds in production too, with every secret given (DATA_DIR also holds database files and uploads)', () => {
    const secrets = { NODE_ENV: 'production', SESSION_SECRET: 's'.repeat(40), SERVICE_ENCRYPTION_KEY: 'k'.repeat(40) };
    refused(join(checkout, 'var'), secrets);
    expect(loadConfig({ DATA_DIR: join(checkout, '.data'), ...secrets }).dataDir).toBe(join(checkout, '.data'));
  });

  it('a worktree (.git is a file) counts as a checkout; a symlink into a checkout is followed', () => {
    const worktree = mkdtempSync(join(tmpdir(), 'service-worktree-'));
    outside.push(worktree);
    writeFileSync(join(worktree, '.git'), 'gitdir: /elsewhere/.git/worktrees/x\n');
    refused(join(worktree, 'data'));
    const links = mkdtempSync(join(tmpdir(), 'service-links-'));
    outside.push(links);
    mkdirSync(join(checkout, 'src'));
    symlinkSync(join(checkout, 'src'), join(links, 'into-src'));
    refused(join(links, 'into-src', 'data'));
  });

  it('outside any checkout every folder is accepted', () => {
    const plain = mkdtempSync(join(tmpdir(), 'service-plain-'));
    outside.push(plain);
    expect(loadConfig({ DATA_DIR: join(plain, 'data') }).dataDir).toBe(join(plain, 'data'));
  });

  it('in this project checkout: the default ./.data and the gitignored some/ are accepted, src/ is refused', () => {
    const secrets = { SESSION_SECRET: 's'.repeat(40), SERVICE_ENCRYPTION_KEY: 'k'.repeat(40) };
    expect(loadConfig(secrets).dataDir).toBe(resolve(process.cwd(), '.data'));
    expect(loadConfig({ ...secrets, DATA_DIR: 'some/dir' }).dataDir).toBe(resolve(process.cwd(), 'some/dir'));
    expect(() => loadConfig({ ...secrets, DATA_DIR: 'src/data' })).toThrow(/DATA_DIR/);
    expect(existsSync(resolve(process.cwd(), 'src/data'))).toBe(false);
  });
});
