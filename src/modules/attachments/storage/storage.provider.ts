import { join } from 'node:path';
import type { Provider } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../../config/config';
import { LocalDiskObjectStorage, ObjectStorage } from './object-storage';

/** The attachment store: local disk under `<DATA_DIR>/attachments`. */
export const OBJECT_STORAGE_PROVIDER: Provider = {
  provide: ObjectStorage,
  useFactory: (config: AppConfig) => new LocalDiskObjectStorage(join(config.dataDir, 'attachments')),
  inject: [APP_CONFIG],
};
