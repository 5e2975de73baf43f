import type { DataSourceOptions } from 'typeorm';
import { MIGRATIONS } from '../../migrations';
import type { AppConfig } from '../config/config';
import { ENTITIES } from './entities';
import { SnakeNamingStrategy } from './naming.strategy';

export function dataSourceOptions(config: Pick<AppConfig, 'databaseUrl' | 'databasePoolSize'>, overrides: Partial<DataSourceOptions> = {}): DataSourceOptions {
  if (!config.databaseUrl) {
    throw new Error('DATABASE_URL is not set: start the service with `npm start` (it launches the embedded PostgreSQL) or set DATABASE_URL');
  }
  return {
    type: 'postgres',
    url: config.databaseUrl,
    entities: ENTITIES,
    migrations: MIGRATIONS,
    migrationsTableName: 'schema_migrations',
    migrationsTransactionMode: 'each',
    synchronize: false,
    migrationsRun: false,
    namingStrategy: new SnakeNamingStrategy(),
    extra: { max: config.databasePoolSize, application_name: 'service' },
    ...overrides,
  } as DataSourceOptions;
}
