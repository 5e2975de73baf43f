import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { runMigrations } from '../../src/database/migrate';

/**
 * Creates a fresh database on the real PostgreSQL (TEST_PG_ADMIN_URL, default the local server),
 * applies the migrations once, and copies it (CREATE DATABASE … TEMPLATE) for every further Jest
 * worker: test files running at the same time never share a database, so one file's sweeps,
 * triggers, TRUNCATEs and database-wide counts cannot touch another's rows (test/support/
 * environment.cjs gives each worker its own). Each run gets its own databases, Redis key prefix
 * and data dir.
 */
export default async function globalSetup(globalConfig: { maxWorkers?: number }): Promise<void> {
  const admin = process.env.TEST_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = `service_test_${process.pid}_${randomBytes(3).toString('hex')}`;
  const workers = Math.max(1, globalConfig.maxWorkers ?? 1);
  const names = [name, ...Array.from({ length: workers - 1 }, (_, i) => `${name}_w${i + 2}`)];
  const c = new Client({ connectionString: admin });
  await c.connect();
  try {
    await c.query(`CREATE DATABASE ${name}`);
    const url = new URL(admin);
    url.pathname = `/${name}`;
    process.env.DATABASE_URL = url.toString();
    // the names first, so globalTeardown drops whatever was created if a step below fails
    process.env.TEST_DATABASE_NAMES = names.join(',');
    await runMigrations({ databaseUrl: process.env.DATABASE_URL, databasePoolSize: 1 });
    for (const copy of names.slice(1)) await c.query(`CREATE DATABASE ${copy} TEMPLATE ${name}`);
  } finally {
    await c.end();
  }
  process.env.REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379/14';
  process.env.QUEUE_PREFIX = `test-${name}`;
  process.env.DATA_DIR = mkdtempSync(join(tmpdir(), 'service-test-'));
  process.env.NODE_ENV = 'test';
  process.env.AUTH_RATE_LIMIT_PER_MINUTE = '1000000'; // the limiter has its own test with a low budget
  process.env.LOG_LEVEL = process.env.LOG_LEVEL ?? 'silent';
}
