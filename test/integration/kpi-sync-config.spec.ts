import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig } from '../../src/config/config';

/** KPI_SYNC_SECRETS_KEY (generated in development like SESSION_SECRET, required in production) and the test-only sync origin. */
describe('configuration: KPI HTTP sync settings', () => {
  let dataDir: string;
  const secret = 's'.repeat(40);
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'kpisync-config-'));
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  it('development: the key is generated once under DATA_DIR (mode 600) and reused', () => {
    const first = loadConfig({ DATA_DIR: dataDir, SESSION_SECRET: secret }).kpiSyncSecretsKey;
    expect(first).toHaveLength(32);
    const file = join(dataDir, 'kpi-sync-secrets-key');
    expect(Buffer.from(readFileSync(file, 'utf8').trim(), 'base64url').equals(first)).toBe(true);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(loadConfig({ DATA_DIR: dataDir, SESSION_SECRET: secret, NODE_ENV: 'test' }).kpiSyncSecretsKey.equals(first)).toBe(true);
  });

  it('accepts 64 hex characters or base64/base64url of 32 bytes', () => {
    const hex = 'ab'.repeat(32);
    expect(loadConfig({ DATA_DIR: dataDir, KPI_SYNC_SECRETS_KEY: hex }).kpiSyncSecretsKey.toString('hex')).toBe(hex);
    const b64 = Buffer.alloc(32, 9).toString('base64');
    expect(loadConfig({ DATA_DIR: dataDir, KPI_SYNC_SECRETS_KEY: b64 }).kpiSyncSecretsKey.equals(Buffer.alloc(32, 9))).toBe(true);
    expect(loadConfig({ DATA_DIR: dataDir, KPI_SYNC_SECRETS_KEY: Buffer.alloc(32, 7).toString('base64url') }).kpiSyncSecretsKey.equals(Buffer.alloc(32, 7))).toBe(true);
  });

  it.each([['short', 'abc'], ['hex of 16 bytes', 'ab'.repeat(16)], ['base64 of 24 bytes', Buffer.alloc(24).toString('base64')]])('refuses a %s key', (_n, v) => {
    expect(() => loadConfig({ DATA_DIR: dataDir, KPI_SYNC_SECRETS_KEY: v })).toThrow(/KPI_SYNC_SECRETS_KEY/);
  });

  it('production requires the key', () => {
    const load = () => loadConfig({ DATA_DIR: dataDir, NODE_ENV: 'production', SESSION_SECRET: secret, WEBHOOK_ENCRYPTION_KEY: secret });
    expect(load).toThrow(ConfigError);
    expect(load).toThrow(/KPI_SYNC_SECRETS_KEY is required/);
  });

  it('SERVICE_KPI_SYNC_TEST_ORIGIN: off by default, loopback http origins only, refused in production', () => {
    expect(loadConfig({ DATA_DIR: dataDir }).kpiSyncTestOrigin).toBeNull();
    expect(loadConfig({ DATA_DIR: dataDir, SERVICE_KPI_SYNC_TEST_ORIGIN: 'http://127.0.0.1:4321' }).kpiSyncTestOrigin).toBe('http://127.0.0.1:4321');
    for (const v of ['https://127.0.0.1:4321', 'http://10.0.0.1:80', 'http://example.com:80', 'http://127.0.0.1', 'http://127.0.0.1:4321/path', 'nope']) {
      expect(() => loadConfig({ DATA_DIR: dataDir, SERVICE_KPI_SYNC_TEST_ORIGIN: v })).toThrow(/SERVICE_KPI_SYNC_TEST_ORIGIN/);
    }
    expect(() =>
      loadConfig({ DATA_DIR: dataDir, NODE_ENV: 'production', SESSION_SECRET: secret, WEBHOOK_ENCRYPTION_KEY: secret, KPI_SYNC_SECRETS_KEY: 'ab'.repeat(32), SERVICE_KPI_SYNC_TEST_ORIGIN: 'http://127.0.0.1:4321' }),
    ).toThrow(/SERVICE_KPI_SYNC_TEST_ORIGIN cannot be set/);
  });
});
