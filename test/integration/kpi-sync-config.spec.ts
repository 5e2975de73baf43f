import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config/config';

/** The test-only sync origin (secrets are sealed under SERVICE_ENCRYPTION_KEY: config.spec.ts). */
describe('configuration: KPI HTTP sync settings', () => {
  let dataDir: string;
  const secret = 's'.repeat(40);
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'kpisync-config-'));
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  it('SERVICE_KPI_SYNC_TEST_ORIGIN: off by default, loopback http origins only, refused in production', () => {
    expect(loadConfig({ DATA_DIR: dataDir }).kpiSyncTestOrigin).toBeNull();
    expect(loadConfig({ DATA_DIR: dataDir, SERVICE_KPI_SYNC_TEST_ORIGIN: 'http://127.0.0.1:4321' }).kpiSyncTestOrigin).toBe('http://127.0.0.1:4321');
    for (const v of ['https://127.0.0.1:4321', 'http://10.0.0.1:80', 'http://example.com:80', 'http://127.0.0.1', 'http://127.0.0.1:4321/path', 'nope']) {
      expect(() => loadConfig({ DATA_DIR: dataDir, SERVICE_KPI_SYNC_TEST_ORIGIN: v })).toThrow(/SERVICE_KPI_SYNC_TEST_ORIGIN/);
    }
    expect(() =>
      loadConfig({
        DATA_DIR: dataDir,
        NODE_ENV: 'production',
        SESSION_SECRET: secret,
        SERVICE_ENCRYPTION_KEY: 'ab'.repeat(32),
        SERVICE_KPI_SYNC_TEST_ORIGIN: 'http://127.0.0.1:4321',
      }),
    ).toThrow(/SERVICE_KPI_SYNC_TEST_ORIGIN cannot be set/);
  });
});
