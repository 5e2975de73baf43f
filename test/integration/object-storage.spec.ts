import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { DataSource } from 'typeorm';
import { loadConfig } from '../../src/config/config';
import { dataSourceOptions } from '../../src/database/data-source-options';
import { Sql } from '../../src/database/sql.service';
import { newStorageKey, ObjectStorage } from '../../src/common/storage/object-storage';
import { PostgresObjectStorage, STORED_CHUNK_BYTES } from '../../src/common/storage/postgres-object-storage';
import { S3_PART_BYTES, S3ObjectStorage } from '../../src/common/storage/s3-object-storage';
import { StoredObjectsRepository } from '../../src/common/storage/stored-objects.repository';
import { startTestS3, type TestS3 } from '../support/s3-server';

const KiB = 1024;
const MiB = 1024 * KiB;
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** Everything a stream yields, and the size of each piece it came in. */
async function drain(stream: Readable): Promise<{ body: Buffer; pieces: number[] }> {
  const parts: Buffer[] = [];
  for await (const p of stream as AsyncIterable<Buffer>) parts.push(p);
  return { body: Buffer.concat(parts), pieces: parts.map((p) => p.length) };
}

/** `data` as a stream of 64 KiB pieces, pulled on demand. */
const piecesOf = (data: Buffer, piece = 64 * KiB): Readable =>
  Readable.from(
    (function* () {
      for (let i = 0; i < data.length; i += piece) yield data.subarray(i, i + piece);
    })(),
    { objectMode: false },
  );

/**
 * A body that yields `before` bytes, then waits at a gate: `reached` resolves when it is there,
 * `open(error?)` lets it finish with `after` more bytes, or fail with `error`.
 */
function gatedBody(before: Buffer, after: Buffer) {
  let arrive!: () => void;
  const reached = new Promise<void>((r) => (arrive = r));
  let release!: (e?: Error) => void;
  const gate = new Promise<Error | undefined>((r) => (release = r));
  const body = Readable.from(
    (async function* () {
      for (let i = 0; i < before.length; i += 64 * KiB) yield before.subarray(i, i + 64 * KiB);
      arrive();
      const error = await gate;
      if (error) throw error;
      for (let i = 0; i < after.length; i += 64 * KiB) yield after.subarray(i, i + 64 * KiB);
    })(),
    { objectMode: false },
  );
  return { body, reached, open: (e?: Error) => release(e) };
}

interface Driver {
  name: string;
  storage: ObjectStorage;
  /** Bytes the driver buffers at most per write (postgres: one chunk; s3: one part). */
  unit: number;
}

/**
 * The ObjectStorage contract, run against both drivers: PostgreSQL on the test database and S3 on
 * a real s3rver started here (no mocked client).
 */
describe('object storage drivers (contract)', () => {
  const config = loadConfig(process.env);
  let db: DataSource;
  let s3: TestS3;
  let s3Storage: S3ObjectStorage;
  let orgId: string;
  const drivers: Driver[] = [];

  beforeAll(async () => {
    db = new DataSource(dataSourceOptions(config));
    await db.initialize();
    orgId = randomUUID();
    await db.query(`INSERT INTO organizations (id, name, issue_prefix, plan) VALUES ($1, 'Storage', 'STO', 'unlimited')`, [orgId]);
    s3 = await startTestS3();
    s3Storage = new S3ObjectStorage(s3.config);
    drivers.push(
      { name: 'postgres', storage: new PostgresObjectStorage(db, new StoredObjectsRepository(new Sql(db))), unit: STORED_CHUNK_BYTES },
      { name: 's3', storage: s3Storage, unit: S3_PART_BYTES },
    );
  });
  afterAll(async () => {
    s3Storage?.onModuleDestroy();
    await s3?.stop();
    await db?.destroy();
  });

  const each = (title: string, fn: (d: Driver) => Promise<void>) =>
    it.each(['postgres', 's3'])(`%s: ${title}`, async (name) => fn(drivers.find((d) => d.name === name)!));

  each('put then get answers the same bytes; a missing key is null; put replaces', async ({ storage, unit }) => {
    const key = newStorageKey(orgId);
    expect(await storage.get(key)).toBeNull();
    const data = randomBytes(unit + 300 * KiB + 7);
    // properties some clients take for the body's length (the upload inspector has a running `size`) do not matter
    await storage.put(key, Object.assign(piecesOf(data), { size: 0, length: 1 }));
    expect(sha((await drain((await storage.get(key))!)).body)).toBe(sha(data));
    const other = randomBytes(1000);
    await storage.put(key, piecesOf(other));
    expect((await drain((await storage.get(key))!)).body.equals(other)).toBe(true);
    await storage.put(key, piecesOf(Buffer.alloc(0)));
    expect((await drain((await storage.get(key))!)).body.length).toBe(0);
  });

  each(
    'put is atomic: while the body is still arriving a reader sees no object; a failing body leaves nothing and its error is rethrown',
    async ({ storage, unit }) => {
      // more than one chunk / part arrives before the gate, so part of the object has been written
      const first = randomBytes(unit + 100 * KiB);
      const rest = randomBytes(50 * KiB);
      const ok = newStorageKey(orgId);
      const g = gatedBody(first, rest);
      const putting = storage.put(ok, g.body);
      await g.reached;
      expect(await storage.get(ok)).toBeNull();
      g.open();
      await putting;
      expect(sha((await drain((await storage.get(ok))!)).body)).toBe(sha(Buffer.concat([first, rest])));

      const bad = newStorageKey(orgId);
      const f = gatedBody(first, rest);
      const failing = storage.put(bad, f.body);
      await f.reached;
      const boom = new Error('client went away');
      f.open(boom);
      await expect(failing).rejects.toBe(boom);
      expect(await storage.get(bad)).toBeNull();
      // replacing an object with a failing body keeps the old one
      const g2 = gatedBody(first, rest);
      const replacing = storage.put(ok, g2.body);
      await g2.reached;
      g2.open(new Error('gone'));
      await expect(replacing).rejects.toThrow('gone');
      expect(sha((await drain((await storage.get(ok))!)).body)).toBe(sha(Buffer.concat([first, rest])));
    },
  );

  each('a body that failed before put reads it rejects with its error and stores nothing', async ({ storage }) => {
    const key = newStorageKey(orgId);
    const body = piecesOf(randomBytes(1000));
    body.on('error', () => undefined);
    const early = new Error('part failed already');
    body.destroy(early);
    await expect(storage.put(key, body)).rejects.toBe(early);
    expect(await storage.get(key)).toBeNull();
  });

  each('delete is idempotent: twice, and for a key never stored', async ({ storage }) => {
    const key = newStorageKey(orgId);
    await storage.put(key, piecesOf(randomBytes(10 * KiB)));
    await storage.delete(key);
    expect(await storage.get(key)).toBeNull();
    await storage.delete(key);
    await storage.delete(newStorageKey(orgId));
    expect(await storage.get(key)).toBeNull();
  });

  each('keys that are not storage keys are refused by every method', async ({ storage }) => {
    for (const key of ['../../etc/passwd', `${orgId}/../x`, `${orgId}/${'a'.repeat(48)}/x`, 'nope']) {
      await expect(storage.put(key, piecesOf(Buffer.from('x')))).rejects.toThrow('Invalid storage key');
      await expect(storage.get(key)).rejects.toThrow('Invalid storage key');
      await expect(storage.delete(key)).rejects.toThrow('Invalid storage key');
    }
  });

  each('a large file (10 MiB and more) is written and read back in pieces, never as one buffer', async ({ name, storage, unit }) => {
    const data = randomBytes(10 * MiB + 123 * KiB);
    const key = newStorageKey(orgId);
    await storage.put(key, piecesOf(data));
    const { body, pieces } = await drain((await storage.get(key))!);
    expect(body.length).toBe(data.length);
    expect(sha(body)).toBe(sha(data));
    expect(pieces.length).toBeGreaterThan(1);
    expect(Math.max(...pieces)).toBeLessThanOrEqual(unit);
    if (name === 'postgres') {
      const [o] = await db.query('SELECT size_bytes, chunk_count FROM stored_objects WHERE org_id = $1 AND key = $2', [orgId, key]);
      expect(o).toEqual({ size_bytes: String(data.length), chunk_count: Math.ceil(data.length / STORED_CHUNK_BYTES) });
      const [c] = await db.query('SELECT count(*)::int AS n, max(length(data)) AS biggest FROM stored_object_chunks WHERE org_id = $1 AND key = $2', [
        orgId,
        key,
      ]);
      expect(c).toEqual({ n: o.chunk_count, biggest: STORED_CHUNK_BYTES });
    }
    await storage.delete(key);
    expect(await storage.get(key)).toBeNull();
  });

  describe('postgres: inside the caller transaction', () => {
    const pg = () => drivers[0].storage;

    it('the object commits with the caller transaction, and rolls back with it', async () => {
      const kept = newStorageKey(orgId);
      const dropped = newStorageKey(orgId);
      await db.transaction(async (m) => {
        await pg().put(kept, piecesOf(randomBytes(STORED_CHUNK_BYTES + 1)), m);
        expect(await pg().get(kept)).toBeNull(); // not visible to others before the commit
      });
      expect(await pg().get(kept)).not.toBeNull();
      await expect(
        db.transaction(async (m) => {
          await pg().put(dropped, piecesOf(randomBytes(1000)), m);
          throw new Error('row refused');
        }),
      ).rejects.toThrow('row refused');
      expect(await pg().get(dropped)).toBeNull();
      expect(await db.query('SELECT 1 FROM stored_object_chunks WHERE org_id = $1 AND key = $2', [orgId, dropped])).toHaveLength(0);
    });

    it('a failed put leaves the caller transaction usable and without a partial object', async () => {
      const bad = newStorageKey(orgId);
      const good = newStorageKey(orgId);
      await db.transaction(async (m) => {
        const f = gatedBody(randomBytes(3 * STORED_CHUNK_BYTES), Buffer.alloc(0));
        const failing = pg().put(bad, f.body, m);
        await f.reached;
        f.open(new Error('gone'));
        await expect(failing).rejects.toThrow('gone');
        await pg().put(good, piecesOf(Buffer.from('after')), m);
      });
      expect(await pg().get(bad)).toBeNull();
      expect(await db.query('SELECT 1 FROM stored_object_chunks WHERE org_id = $1 AND key = $2', [orgId, bad])).toHaveLength(0);
      expect((await drain((await pg().get(good))!)).body.toString()).toBe('after');
    });

    it('an object removed while it is read ends the stream with an error, not with short content', async () => {
      const key = newStorageKey(orgId);
      await pg().put(key, piecesOf(randomBytes(4 * STORED_CHUNK_BYTES)));
      const stream = (await pg().get(key))!;
      const it = (stream as AsyncIterable<Buffer>)[Symbol.asyncIterator]();
      expect((await it.next()).done).toBe(false);
      await pg().delete(key);
      await expect(drain(Readable.from(it as unknown as AsyncIterable<Buffer>, { objectMode: false }))).rejects.toThrow(/removed while it was being read/);
    });

    it('objects go with their organization', async () => {
      const org2 = randomUUID();
      await db.query(`INSERT INTO organizations (id, name, issue_prefix, plan) VALUES ($1, 'Gone', 'GON', 'unlimited')`, [org2]);
      const key = newStorageKey(org2);
      await pg().put(key, piecesOf(randomBytes(STORED_CHUNK_BYTES + 5)));
      await db.query('DELETE FROM organizations WHERE id = $1', [org2]);
      expect(await pg().get(key)).toBeNull();
      expect(await db.query('SELECT 1 FROM stored_object_chunks WHERE org_id = $1', [org2])).toHaveLength(0);
    });
  });
});
