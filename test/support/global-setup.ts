import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { runMigrations } from '../../src/database/migrate';

/**
 * Creates a fresh database on the real PostgreSQL (TEST_PG_ADMIN_URL, default the local server)
 * and applies the migrations once. Each run gets its own database, Redis key prefix and data dir.
 */
export default async function globalSetup(): Promise<void> {
  const admin = process.env.TEST_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = `service_test_${process.pid}_${randomBytes(3).toString('hex')}`;
  const c = new Client({ connectionString: admin });
  await c.connect();
  await c.query(`CREATE DATABASE ${name}`);
  await c.end();
  const url = new URL(admin);
  url.pathname = `/${name}`;
  process.env.DATABASE_URL = url.toString();
  process.env.TEST_DATABASE_NAME = name;
  process.env.REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379/14';
  process.env.QUEUE_PREFIX = `test-${name}`;
  process.env.DATA_DIR = mkdtempSync(join(tmpdir(), 'service-test-'));
  process.env.NODE_ENV = 'test';
  process.env.AUTH_RATE_LIMIT_PER_MINUTE = '1000000'; // the limiter has its own test with a low budget
  process.env.LOG_LEVEL = process.env.LOG_LEVEL ?? 'silent';
  await runMigrations({ databaseUrl: process.env.DATABASE_URL, databasePoolSize: 1 });
}
