import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ConfigError, loadConfig } from '../../src/config/config';

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
});
