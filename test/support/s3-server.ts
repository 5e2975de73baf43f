import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import type { S3StorageConfig } from '../../src/config/config';

/** A real S3-compatible server (s3rver) for the `s3` storage driver's tests. */
export interface TestS3 {
  /** Settings of the running server's bucket, as STORAGE_S3_* would give them. */
  config: S3StorageConfig;
  /** The same as environment variables (for startTestApp). */
  env: Record<string, string>;
  /** The keys in the bucket under `prefix` (read with a client of the test's own, not the service's). */
  keys: (prefix: string) => Promise<string[]>;
  stop: () => Promise<void>;
}

/**
 * Starts s3rver on 127.0.0.1, on a port the system picks (port 0), keeping its files in a fresh
 * temporary directory with one bucket; `stop` closes it and removes the directory.
 */
export async function startTestS3(bucket = 'service-test'): Promise<TestS3> {
  const directory = mkdtempSync(join(tmpdir(), 'service-s3rver-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket, configs: [] }] });
  let port: number;
  try {
    ({ port } = await server.run());
  } catch (e) {
    rmSync(directory, { recursive: true, force: true });
    throw e;
  }
  // s3rver accepts any signature made with its fixed credentials (S3RVER / S3RVER)
  const config: S3StorageConfig = {
    bucket,
    region: 'us-east-1',
    endpoint: `http://127.0.0.1:${port}`,
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    forcePathStyle: true,
  };
  const client = new S3Client({
    region: config.region,
    endpoint: config.endpoint!,
    forcePathStyle: true,
    credentials: { accessKeyId: config.accessKeyId!, secretAccessKey: config.secretAccessKey! },
  });
  return {
    config,
    env: {
      STORAGE_DRIVER: 's3',
      STORAGE_S3_BUCKET: bucket,
      STORAGE_S3_REGION: config.region,
      STORAGE_S3_ENDPOINT: config.endpoint!,
      STORAGE_S3_ACCESS_KEY_ID: config.accessKeyId!,
      STORAGE_S3_SECRET_ACCESS_KEY: config.secretAccessKey!,
      STORAGE_S3_FORCE_PATH_STYLE: 'true',
    },
    keys: async (prefix) => ((await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix }))).Contents ?? []).map((c) => c.Key!),
    stop: async () => {
      client.destroy();
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
