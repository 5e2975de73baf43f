import { Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../../config/config';
import { ObjectStorage } from './object-storage';
import { PostgresObjectStorage } from './postgres-object-storage';
import { S3ObjectStorage } from './s3-object-storage';
import { StoredObjectsRepository } from './stored-objects.repository';

/**
 * The configured ObjectStorage (STORAGE_DRIVER: `postgres` by default, or `s3`). Imported by the
 * modules that store files, in the API and in the worker alike, so an object put by one process is
 * read and deleted through the same store by any other.
 */
@Module({
  providers: [
    StoredObjectsRepository,
    {
      provide: ObjectStorage,
      useFactory: (config: AppConfig, db: DataSource, objects: StoredObjectsRepository): ObjectStorage =>
        config.storage.driver === 's3' ? new S3ObjectStorage(config.storage) : new PostgresObjectStorage(db, objects),
      inject: [APP_CONFIG, DataSource, StoredObjectsRepository],
    },
  ],
  exports: [ObjectStorage],
})
export class StorageModule {}
