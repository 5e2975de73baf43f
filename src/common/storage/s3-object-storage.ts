import { Readable } from 'node:stream';
import { DeleteObjectCommand, GetObjectCommand, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { OnModuleDestroy } from '@nestjs/common';
import type { S3StorageConfig } from '../../config/config';
import { ObjectStorage, orgOfStorageKey } from './object-storage';

/** Part size of multipart uploads: S3's minimum, so an upload buffers at most one part. */
export const S3_PART_BYTES = 5 * 1024 * 1024;

/**
 * STORAGE_DRIVER=s3: objects in a bucket of any S3-compatible service (AWS S3, MinIO, Ceph, R2,
 * ...), under their key `<org id>/<random>` (so one organization's files share a prefix).
 *
 * `put` streams the body with `@aws-sdk/lib-storage`: a body up to one part (5 MiB, S3's minimum
 * part size) is sent with one PutObject, a larger one as a multipart upload of 5 MiB parts, one
 * part in flight; either way at most one part is buffered, and S3 shows the object only once it is
 * complete (atomic). A failed multipart upload is aborted (a bucket lifecycle rule for incomplete
 * multipart uploads is the backstop). `put` never joins a database transaction (`transactional`
 * false). Checksums are computed only where the service requires them (S3-compatible services
 * differ in support for the SDK's default checksums); the service keeps the SHA-256 itself.
 */
export class S3ObjectStorage extends ObjectStorage implements OnModuleDestroy {
  readonly transactional = false;
  private readonly client: S3Client;
  private readonly bucket: string;

  constructor(config: S3StorageConfig) {
    super();
    this.bucket = config.bucket;
    this.client = new S3Client({
      region: config.region,
      endpoint: config.endpoint ?? undefined,
      forcePathStyle: config.forcePathStyle,
      credentials: config.accessKeyId && config.secretAccessKey ? { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey } : undefined,
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  async put(key: string, body: Readable): Promise<void> {
    orgOfStorageKey(key);
    // the body's own failure (too large, client gone, malformed multipart) is what the caller must
    // see, not the abort of the multipart upload that it causes
    let bodyError: unknown;
    const keep = (e: unknown) => (bodyError ??= e);
    body.on('error', keep);
    try {
      const upload = new Upload({
        client: this.client,
        // re-streamed: lib-storage takes a `size`, `length` or `path` property of the body for its
        // total length (UploadInspector has a running `size`), which breaks multipart uploads
        params: { Bucket: this.bucket, Key: key, Body: Readable.from(body, { objectMode: false }), ContentType: 'application/octet-stream' },
        partSize: S3_PART_BYTES,
        queueSize: 1,
      });
      await upload.done();
    } catch (e) {
      if (!body.destroyed) body.destroy();
      throw bodyError ?? e;
    } finally {
      body.off('error', keep);
    }
  }

  async get(key: string): Promise<Readable | null> {
    orgOfStorageKey(key);
    try {
      const res = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      return res.Body as Readable;
    } catch (e) {
      if (e instanceof S3ServiceException && (e.name === 'NoSuchKey' || e.$metadata.httpStatusCode === 404)) return null;
      throw e;
    }
  }

  async delete(key: string): Promise<void> {
    orgOfStorageKey(key);
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  onModuleDestroy(): void {
    this.client.destroy();
  }
}
