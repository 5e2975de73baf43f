import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from '../../src/config/config';

/**
 * Nothing a test, a start or a bench run writes may be committed: no generated secret, no key
 * material, nothing under a data folder. Runs against the files git tracks in this checkout
 * (Jest runs from the project root).
 */
const root = process.cwd();
const git = (...args: string[]): string => execFileSync('git', args, { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
const tracked = (): string[] => git('ls-files', '-z').split('\0').filter(Boolean);

/** Files the service itself generates under DATA_DIR (config.ts, embedded-postgres.ts) and the keys of older versions. */
const GENERATED_SECRET_FILES = ['session-secret', 'encryption-key', 'postgres-password', 'webhook-encryption-key', 'kpi-sync-secrets-key'];
const KEY_LIKE_NAME = /key|secret|\.pem$|\.p12$|\.pfx$|id_rsa|id_ed25519|token/i;
const PRIVATE_KEY_BLOCK = /-----BEGIN [A-Z ]*PRIVATE KEY-----/;

/** A file whose whole content is one long unbroken token (how generated secrets are kept), or key material. */
function looksLikeSecret(text: string): boolean {
  const t = text.trim();
  return PRIVATE_KEY_BLOCK.test(t) || /^(?:[A-Za-z0-9+/=_-]{24,}|[0-9a-f]{32,})$/.test(t);
}

describe('repository hygiene (git ls-files)', () => {
  it('this is a git checkout (the checks below read what git tracks)', () => {
    expect(git('rev-parse', '--show-toplevel').trim()).toBeTruthy();
    expect(tracked()).toContain('package.json');
  });

  it('no generated secret file, and no key-like file whose content looks like a secret, is tracked', () => {
    const offenders: string[] = [];
    for (const path of tracked()) {
      const name = path.split('/').pop()!;
      if (GENERATED_SECRET_FILES.includes(name)) offenders.push(`${path} (a generated secret)`);
      else if (KEY_LIKE_NAME.test(name) && looksLikeSecret(readFileSync(join(root, path), 'utf8'))) offenders.push(`${path} (looks like a secret)`);
    }
    expect(offenders).toEqual([]);
  });

  it('no tracked file holds private key material', () => {
    const offenders = tracked().filter(
      (path) => !/\.(png|jpe?g|gif|ico|woff2?)$/i.test(path) && PRIVATE_KEY_BLOCK.test(readFileSync(join(root, path), 'utf8')),
    );
    expect(offenders).toEqual([]);
  });

  it('no tracked file is one .gitignore excludes (force-added files under .data/, some/, dist/, coverage/ …)', () => {
    expect(git('ls-files', '--cached', '--ignored', '--exclude-standard', '-z').split('\0').filter(Boolean)).toEqual([]);
  });

  it('.gitignore covers every path a test, a start or a bench run writes inside the checkout', () => {
    const written = [
      '.data/session-secret', // DATA_DIR default: generated secrets (config.ts)
      '.data/encryption-key',
      '.data/postgres-password', // embedded PostgreSQL (embedded-postgres.ts)
      '.data/postgres/PG_VERSION',
      '.data/redis/dump.rdb', // redis-launcher.ts
      '.data/attachments/org/object', // attachment storage
      'some/dir/webhook-encryption-key', // an old test run with DATA_DIR=some/dir
      'dist/src/main.js', // npm run build
      'coverage/lcov.info', // jest --coverage
      'npm-debug.log',
      'isolate-0x1-1-v8.log', // node --prof
      'CPU.20260101.000000.1.0.001.cpuprofile', // node --cpu-prof without --cpu-prof-dir
      'bench/results/profile.json',
      '.env',
      '.env.local',
    ];
    const notIgnored = written.filter((p) => {
      try {
        git('check-ignore', '-q', '--no-index', p);
        return false;
      } catch {
        return true;
      }
    });
    expect(notIgnored).toEqual([]);
  });

  it('the committed bench record stays tracked (bench/results/latest.json is re-included on purpose)', () => {
    expect(tracked()).toContain('bench/results/latest.json');
  });

  it('the default DATA_DIR (./.data) is accepted by the configuration, a tracked folder is refused', () => {
    const secrets = { SESSION_SECRET: 's'.repeat(40), SERVICE_ENCRYPTION_KEY: 'k'.repeat(40) };
    expect(loadConfig(secrets).dataDir).toBe(join(root, '.data'));
    expect(() => loadConfig({ ...secrets, DATA_DIR: 'test/data' })).toThrow(/DATA_DIR/);
  });
});
