import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The PostgreSQL object store (STORAGE_DRIVER=postgres, the default; src/common/storage):
 * - `stored_objects`: one row per complete object, keyed by (org_id, key); the key is the storage
 *   key `<org id>/<random>` (the same text as `attachments.storage_key`), so it starts with its
 *   organization. Removed with its organization.
 * - `stored_object_chunks`: the bytes, in numbered chunks (256 KiB now; up to 1 MiB allowed), removed with their
 *   object. `data` is stored out of line without compression (EXTERNAL): uploads are mostly
 *   compressed already (images, archives), and reading a slice needs no decompression.
 * org_id leads every key, so both tables distribute on it.
 */
export class StoredObjects1765620000000 implements MigrationInterface {
  name = 'StoredObjects1765620000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE stored_objects (
        org_id uuid NOT NULL,
        key text NOT NULL,
        size_bytes bigint NOT NULL DEFAULT 0 CHECK (size_bytes >= 0),
        chunk_count integer NOT NULL DEFAULT 0 CHECK (chunk_count >= 0),
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (org_id, key),
        CONSTRAINT stored_objects_key_check CHECK (starts_with(key, org_id::text || '/') AND length(key) <= 200),
        CONSTRAINT stored_objects_org_fk FOREIGN KEY (org_id) REFERENCES organizations(id) ON DELETE CASCADE
      );

      CREATE TABLE stored_object_chunks (
        org_id uuid NOT NULL,
        key text NOT NULL,
        chunk_no integer NOT NULL CHECK (chunk_no >= 0),
        data bytea NOT NULL CHECK (length(data) BETWEEN 1 AND 1048576),
        PRIMARY KEY (org_id, key, chunk_no),
        CONSTRAINT stored_object_chunks_object_fk FOREIGN KEY (org_id, key) REFERENCES stored_objects(org_id, key) ON DELETE CASCADE
      );
      ALTER TABLE stored_object_chunks ALTER COLUMN data SET STORAGE EXTERNAL;
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE IF EXISTS stored_object_chunks, stored_objects');
  }
}
