import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { loadConfig } from './src/config/config';
import { dataSourceOptions } from './src/database/data-source-options';

/** The DataSource the TypeORM CLI uses (`npm run typeorm -- migration:show`). Needs DATABASE_URL. */
export default new DataSource(dataSourceOptions(loadConfig()));
