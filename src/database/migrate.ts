import { DataSource } from 'typeorm';
import type { AppConfig } from '../config/config';
import { dataSourceOptions } from './data-source-options';

/** Runs pending migrations under a PostgreSQL advisory lock, so concurrent starters do not race. */
export async function runMigrations(config: Pick<AppConfig, 'databaseUrl' | 'databasePoolSize'>): Promise<string[]> {
  const ds = new DataSource(dataSourceOptions({ ...config, databasePoolSize: 1 }));
  await ds.initialize();
  try {
    await ds.query('SELECT pg_advisory_lock(727274001)');
    try {
      const ran = await ds.runMigrations({ transaction: 'each' });
      return ran.map((m) => m.name);
    } finally {
      await ds.query('SELECT pg_advisory_unlock(727274001)');
    }
  } finally {
    await ds.destroy();
  }
}
