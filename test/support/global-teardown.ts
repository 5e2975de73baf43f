import { rmSync } from 'node:fs';
import Redis from 'ioredis';
import { Client } from 'pg';

export default async function globalTeardown(): Promise<void> {
  const names = (process.env.TEST_DATABASE_NAMES ?? '').split(',').filter(Boolean);
  if (names.length) {
    const c = new Client({ connectionString: process.env.TEST_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres' });
    await c.connect();
    // the workers' copies first: the template goes last
    for (const name of names.reverse()) await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await c.end();
  }
  await dropQueueKeys(process.env.REDIS_URL, process.env.QUEUE_PREFIX);
  if (process.env.DATA_DIR?.includes('service-test-')) rmSync(process.env.DATA_DIR, { recursive: true, force: true });
}

/** The run's Bull keys (every test file's prefix starts with the run's, environment.cjs) leave the shared Redis with it. */
async function dropQueueKeys(url: string | undefined, prefix: string | undefined): Promise<void> {
  if (!url || !prefix?.startsWith('test-service_test_')) return;
  const r = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await r.connect();
    let cursor = '0';
    do {
      const [next, keys] = await r.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      if (keys.length) await r.unlink(...keys);
      cursor = next;
    } while (cursor !== '0');
  } catch {
    // a Redis that is gone takes its keys with it
  } finally {
    r.disconnect();
  }
}
