import { createHash, randomBytes } from 'node:crypto';
import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { loadConfig } from '../../src/config/config';
import { WorkerModule } from '../../src/worker.module';
import { startTestApp, type TestApp } from '../support/app';
import { newOrg, newProject, type TestOrg } from '../support/factories';
import { startTestS3, type TestS3 } from '../support/s3-server';

const MiB = 1024 * 1024;
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const binary = (res: any, cb: (e: Error | null, b: Buffer) => void) => {
  const chunks: Buffer[] = [];
  res.on('data', (c: Buffer) => chunks.push(c));
  res.on('end', () => cb(null, Buffer.concat(chunks)));
};

/**
 * Attachments with STORAGE_DRIVER=s3, against a real S3-compatible server (s3rver, started here on
 * a port the system picks): the API stores and serves the bytes from the bucket, and a worker
 * (the real WorkerModule, with its own store built from the same configuration) removes them
 * after a delete. Nothing goes to the database's object tables.
 */
describe('attachments with the s3 storage driver', () => {
  let s3: TestS3;
  let t: TestApp;
  let worker: INestApplicationContext | undefined;
  let org: TestOrg;

  /** Keys in the bucket under the organization's prefix. */
  const keysOf = (o: TestOrg): Promise<string[]> => s3.keys(`${o.id}/`);

  beforeAll(async () => {
    s3 = await startTestS3();
    t = await startTestApp(s3.env);
    org = await newOrg(t);
  });
  afterAll(async () => {
    await worker?.close();
    await t?.close();
    await s3?.stop();
  });

  it('upload → download → delete → the worker removes the object from the bucket', async () => {
    expect(t.config.storage).toMatchObject({ driver: 's3', bucket: s3.config.bucket });
    const proj = await newProject(t, org);
    const issue = (await org.owner.http.post(`/api/orgs/${org.id}/issues`).send({ title: 'with file', projectId: proj.id }).expect(201)).body.issue.id;
    const base = `/api/orgs/${org.id}/issues/${issue}/attachments`;
    // larger than one multipart part, so the upload is a multipart one
    const data = randomBytes(6 * MiB + 17);
    const a = (await org.owner.http.post(base).attach('file', data, { filename: 'big.bin', contentType: 'application/octet-stream' }).expect(201)).body
      .attachment;
    expect(a).toMatchObject({ size_bytes: data.length, sha256: sha(data) });
    const [{ storage_key: key }] = await t.db.query('SELECT storage_key FROM attachments WHERE org_id = $1 AND id = $2', [org.id, a.id]);
    expect(await keysOf(org)).toEqual([key]);
    expect(await t.db.query('SELECT 1 FROM stored_objects WHERE org_id = $1', [org.id])).toHaveLength(0);

    const content = await org.owner.http.get(a.url).buffer(true).parse(binary).expect(200);
    expect(content.headers['content-length']).toBe(String(data.length));
    expect(sha(content.body)).toBe(sha(data));

    // refused uploads leave nothing in the bucket
    await org.owner.http.post(base).attach('file', Buffer.from('not a png'), { filename: 'x.png', contentType: 'image/png' }).expect(400);
    await org.owner.http
      .post(base)
      .attach('file', Buffer.alloc(10 * MiB + 1, 1), { filename: 'huge.bin' })
      .expect(413);
    expect(await keysOf(org)).toEqual([key]);

    // the worker process's modules, configured from the same environment
    worker = await NestFactory.createApplicationContext(WorkerModule.forRoot(loadConfig({ ...process.env, ...s3.env })), { logger: false });
    await worker.init();
    await org.owner.http.delete(`${base}/${a.id}`).expect(200); // queues the object and requests a sweep
    await org.owner.http.get(a.url).expect(404);
    let left = [key];
    for (let i = 0; i < 150 && left.length; i++) {
      await new Promise((r) => setTimeout(r, 100));
      left = await keysOf(org);
    }
    expect(left).toEqual([]);
    expect(await t.db.query('SELECT 1 FROM storage_deletions WHERE storage_key = $1', [key])).toHaveLength(0);
  });
});
