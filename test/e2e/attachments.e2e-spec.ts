import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Bull from 'bull';
import { ATTACHMENTS_QUEUE, PROCESS_STORAGE_DELETIONS } from '../../src/modules/attachments/attachments.constants';
import { AttachmentsWorkerModule } from '../../src/modules/attachments/attachments-worker.module';
import { StorageDeletionProcessor } from '../../src/modules/attachments/storage-deletion.processor';
import { ObjectStorage } from '../../src/common/storage/object-storage';
import { StorageDeletionSweeper } from '../../src/modules/attachments/storage-deletion.sweeper';
import { StorageDeletionsRepository } from '../../src/modules/attachments/storage-deletions.repository';
import { UploadSlots } from '../../src/modules/attachments/upload-slots';
import { startTestApp, type TestApp } from '../support/app';
import { addMember, newOrg, newProject, newUser, type TestOrg, type TestUser } from '../support/factories';

const MiB = 1024 * 1024;
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(200)]);
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), randomBytes(100)]);
const GIF = Buffer.concat([Buffer.from('GIF89a', 'latin1'), randomBytes(50)]);
const WEBP = Buffer.concat([Buffer.from('RIFF', 'latin1'), Buffer.from([1, 2, 3, 4]), Buffer.from('WEBPVP8 ', 'latin1'), randomBytes(50)]);
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** Attachments: multipart upload with limits and signature checks, private content, durable deletion. */
describe('attachments', () => {
  let t: TestApp;
  let org: TestOrg;
  let other: TestOrg;
  let member: TestUser; // view on every project
  let guest: TestUser; // view on projA only
  let projA: { id: string };
  let projB: { id: string };
  let seq = 0;

  const base = (issueId: string, o = org) => `/api/orgs/${o.id}/issues/${issueId}/attachments`;
  const mkIssue = async (projectId: string | null, o = org): Promise<string> => {
    const id = randomUUID();
    await t.db.query('INSERT INTO issues (org_id, id, project_id, number, title, status) VALUES ($1, $2, $3, $4, $5, $6)', [
      o.id,
      id,
      projectId,
      ++seq + 5000,
      `Att ${seq}`,
      'todo',
    ]);
    return id;
  };
  const upload = (issueId: string, body: Buffer, filename: string, contentType?: string, who: TestUser = org.owner) =>
    who.http.post(base(issueId)).attach('file', body, contentType ? { filename, contentType } : { filename });
  /** Objects of the organization in the default (postgres) store, and chunks not belonging to a complete object. */
  const storedFiles = async (o = org): Promise<number> => {
    const [{ objects, loose }] = await t.db.query(
      `SELECT (SELECT count(*)::int FROM stored_objects WHERE org_id = $1) AS objects,
              (SELECT count(*)::int FROM stored_object_chunks c WHERE c.org_id = $1
                 AND c.chunk_no >= (SELECT chunk_count FROM stored_objects s WHERE s.org_id = c.org_id AND s.key = c.key)) AS loose`,
      [o.id],
    );
    expect(loose).toBe(0);
    return objects;
  };
  /** Whether the configured store holds `key` (read through the same ObjectStorage the API uses). */
  const stored = async (key: string): Promise<boolean> => {
    const stream = await t.app.get(ObjectStorage).get(key);
    stream?.destroy();
    return stream !== null;
  };
  const binary = (res: any, cb: (e: Error | null, b: Buffer) => void) => {
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    res.on('end', () => cb(null, Buffer.concat(chunks)));
  };

  beforeAll(async () => {
    t = await startTestApp();
    org = await newOrg(t);
    other = await newOrg(t);
    member = await newUser(t, 'member');
    guest = await newUser(t, 'guest');
    await addMember(t, org, member, 'member');
    const guestId = await addMember(t, org, guest, 'guest');
    projA = await newProject(t, org);
    projB = await newProject(t, org);
    await org.owner.http.post(`/api/orgs/${org.id}/projects/${projA.id}/members`).send({ memberId: guestId, accessLevel: 'view' }).expect(201);
  });
  afterAll(() => t.close());

  it('POST stores a PNG: 201 { attachment } with size, sha256 and the content url; GET lists it; content is inline', async () => {
    const issue = await mkIssue(projA.id);
    const res = await upload(issue, PNG, 'shot.png', 'image/png').expect(201);
    const a = res.body.attachment;
    expect(a).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      issue_id: issue,
      file_name: 'shot.png',
      content_type: 'image/png',
      size_bytes: PNG.length,
      sha256: sha(PNG),
      url: `/api/orgs/${org.id}/issues/${issue}/attachments/${a.id}/content`,
      uploaded_by: org.ownerMemberId,
      created_at: expect.any(String),
    });
    const [row] = await t.db.query('SELECT storage_key FROM attachments WHERE id = $1', [a.id]);
    expect(row.storage_key).toMatch(new RegExp(`^${org.id}/[0-9a-f]{48}$`));
    expect(t.config.storage.driver).toBe('postgres'); // the default
    expect(await stored(row.storage_key)).toBe(true);
    const [obj] = await t.db.query('SELECT org_id, size_bytes FROM stored_objects WHERE key = $1', [row.storage_key]);
    expect(obj).toEqual({ org_id: org.id, size_bytes: String(PNG.length) });
    const list = await org.owner.http.get(base(issue)).expect(200);
    expect(list.body).toEqual({ attachments: [a] });
    const content = await org.owner.http.get(a.url).buffer(true).parse(binary).expect(200);
    expect(content.headers['content-type']).toBe('image/png');
    expect(content.headers['x-content-type-options']).toBe('nosniff');
    expect(content.headers['content-disposition']).toMatch(/^inline; filename="shot.png"/);
    expect(Buffer.compare(content.body, PNG)).toBe(0);
  });

  it('JPEG, GIF and WebP are accepted by signature and served inline', async () => {
    const issue = await mkIssue(projA.id);
    for (const [buf, name, type] of [
      [JPEG, 'a.jpg', 'image/jpeg'],
      [GIF, 'b.gif', 'image/gif'],
      [WEBP, 'c.webp', 'image/webp'],
      [JPEG, 'd.jpeg', 'application/octet-stream'],
    ] as const) {
      const a = (await upload(issue, buf, name, type).expect(201)).body.attachment;
      expect(a.content_type).toBe(type === 'application/octet-stream' ? 'image/jpeg' : type);
      const c = await org.owner.http.get(a.url).buffer(true).parse(binary).expect(200);
      expect(c.headers['content-type']).toBe(a.content_type);
    }
  });

  it('other files are downloads: application/octet-stream, attachment with a safe file name, nosniff', async () => {
    const issue = await mkIssue(null);
    const html = Buffer.from('<script>alert(1)</script>');
    const a = (await upload(issue, html, '../../evil"\r\nname.html', 'text/html').expect(201)).body.attachment;
    expect(a.file_name).toMatch(/^evil.*name\.html$/);
    expect(a.file_name).not.toMatch(/[\\/"\r\n]/);
    expect(a.content_type).toBe('text/html');
    const c = await org.owner.http.get(a.url).buffer(true).parse(binary).expect(200);
    expect(c.headers['content-type']).toBe('application/octet-stream');
    expect(c.headers['content-disposition']).toMatch(/^attachment; filename="evil[^"\\/\r\n]*name\.html"; filename\*=UTF-8''evil\S*name\.html$/);
    expect(c.headers['x-content-type-options']).toBe('nosniff');
    expect(c.body.toString()).toBe(html.toString());
    const uni = (await upload(issue, Buffer.from('x'), 'résumé.pdf', 'application/pdf').expect(201)).body.attachment;
    const c2 = await org.owner.http.get(uni.url).buffer(true).parse(binary).expect(200);
    expect(c2.headers['content-disposition']).toBe(`attachment; filename="r_sum_.pdf"; filename*=UTF-8''r%C3%A9sum%C3%A9.pdf`);
  });

  it('declared images whose bytes do not match, and other image types, are 400 with nothing stored', async () => {
    const issue = await mkIssue(projA.id);
    const before = await storedFiles();
    const cases: Array<[Buffer, string, string]> = [
      [Buffer.from('not a png at all'), 'x.png', 'image/png'],
      [JPEG, 'x.png', 'image/png'],
      [PNG, 'x.gif', 'image/gif'],
      [Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), 'x.svg', 'image/svg+xml'],
      [Buffer.from('BM....'), 'x.bmp', 'image/bmp'],
      [Buffer.from('plain text'), 'x.webp', 'application/octet-stream'],
    ];
    for (const [buf, name, type] of cases) {
      const r = await upload(issue, buf, name, type);
      expect([name, type, r.status]).toEqual([name, type, 400]);
      expect(r.body.error).toEqual(expect.any(String));
    }
    expect(await t.db.query('SELECT 1 FROM attachments WHERE issue_id = $1', [issue])).toHaveLength(0);
    expect(await storedFiles()).toBe(before);
  });

  it('empty files, missing or misnamed file fields and non-multipart bodies are 400', async () => {
    const issue = await mkIssue(projA.id);
    await upload(issue, Buffer.alloc(0), 'empty.txt', 'text/plain').expect(400);
    await org.owner.http.post(base(issue)).attach('document', Buffer.from('x'), 'x.txt').expect(400);
    await org.owner.http.post(base(issue)).field('file', 'just a field').expect(400);
    await org.owner.http.post(base(issue)).send({ file: 'x' }).expect(400);
    await org.owner.http.post(base(issue)).expect(400);
    expect(await t.db.query('SELECT 1 FROM attachments WHERE issue_id = $1', [issue])).toHaveLength(0);
  });

  it('a multipart body that ends before its closing boundary is a 400 at once, alone or 30 at a time (it used to hang)', async () => {
    const issue = await mkIssue(projA.id);
    const before = await storedFiles();
    const head = '--XyZ\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\n';
    const bodies = [`${head}hello`, head, `${head}hello\r\n--XyZ`, '--XyZ\r\nContent-Disposition: form-data; name="file"; filename="a.txt"', '--XyZ'];
    const send = (body: string) => org.owner.http.post(base(issue)).set('content-type', 'multipart/form-data; boundary=XyZ').send(Buffer.from(body));
    for (const body of bodies) {
      const r = await send(body);
      expect([JSON.stringify(body), r.status, r.body.code]).toEqual([JSON.stringify(body), 400, 'validation_failed']);
    }
    const many = await Promise.all(Array.from({ length: 30 }, () => send(`${head}hello`)));
    expect(many.map((r) => r.status)).toEqual(Array(30).fill(400));
    expect(await t.db.query('SELECT 1 FROM attachments WHERE issue_id = $1', [issue])).toHaveLength(0);
    expect(await storedFiles()).toBe(before);
    await upload(issue, PNG, 'after.png', 'image/png').expect(201);
  });

  it('exactly 10 MiB is accepted; 10 MiB + 1 byte is 413 and leaves nothing behind', async () => {
    const issue = await mkIssue(projA.id);
    const exact = Buffer.alloc(10 * MiB, 7);
    const ok = await upload(issue, exact, 'big.bin', 'application/octet-stream').expect(201);
    expect(ok.body.attachment).toMatchObject({ size_bytes: 10 * MiB, sha256: sha(exact) });
    const before = await storedFiles();
    const r = await upload(issue, Buffer.alloc(10 * MiB + 1, 7), 'bigger.bin', 'application/octet-stream').expect(413);
    expect(r.body.error).toMatch(/10 MiB/);
    expect(await t.db.query('SELECT 1 FROM attachments WHERE issue_id = $1', [issue])).toHaveLength(1);
    expect(await storedFiles()).toBe(before);
    // the connection stays usable
    await org.owner.http.get(base(issue)).expect(200);
  });

  it('access follows the issue: 401, 404 (other org, unreadable, guest + projectless, unknown), 403 (view only)', async () => {
    const a1 = await mkIssue(projA.id);
    const b1 = await mkIssue(projB.id);
    const loose = await mkIssue(null);
    const att = (await upload(a1, PNG, 'p.png', 'image/png').expect(201)).body.attachment;
    const looseAtt = (await upload(loose, PNG, 'p.png', 'image/png').expect(201)).body.attachment;
    await t.http().get(base(a1)).expect(401);
    await t.http().get(att.url).expect(401);
    await t.http().post(base(a1)).attach('file', PNG, { filename: 'p.png', contentType: 'image/png' }).expect(401);
    await t
      .http()
      .delete(`${base(a1)}/${att.id}`)
      .expect(401);
    // other organization
    const foreign = await mkIssue(null, other);
    await org.owner.http.get(base(foreign)).expect(404);
    await other.owner.http.get(base(a1, other)).expect(404);
    await other.owner.http.get(`/api/orgs/${other.id}/issues/${a1}/attachments/${att.id}/content`).expect(404);
    await org.owner.http.get(base(randomUUID())).expect(404);
    expect((await org.owner.http.get(base('nope')).expect(400)).body.code).toBe('invalid_reference');
    await org.owner.http.get(`${base(a1)}/${randomUUID()}/content`).expect(404);
    await org.owner.http.get(`${base(b1)}/${att.id}/content`).expect(404); // attachment of another issue
    // guest: view on projA only
    await guest.http.get(base(a1)).expect(200);
    await guest.http.get(att.url).expect(200);
    await guest.http.get(base(b1)).expect(404);
    await guest.http.get(base(loose)).expect(404);
    await guest.http.get(looseAtt.url).expect(404);
    await upload(a1, PNG, 'g.png', 'image/png', guest).expect(403);
    await guest.http.delete(`${base(a1)}/${att.id}`).expect(403);
    // member: view everywhere, edit on projectless issues
    await member.http.get(looseAtt.url).expect(200);
    await upload(a1, PNG, 'm.png', 'image/png', member).expect(403);
    await member.http.delete(`${base(a1)}/${att.id}`).expect(403);
    await upload(loose, PNG, 'm.png', 'image/png', member).expect(201);
  });

  it('DELETE removes the row (200), queues the object, and the sweeper removes it; failures are retried later', async () => {
    const issue = await mkIssue(projA.id);
    const a = (await upload(issue, PNG, 'd.png', 'image/png').expect(201)).body.attachment;
    const [{ storage_key: key }] = await t.db.query('SELECT storage_key FROM attachments WHERE id = $1', [a.id]);
    expect(await stored(key)).toBe(true);
    const res = await org.owner.http.delete(`${base(issue)}/${a.id}`).expect(200);
    expect(res.body).toEqual({ success: true });
    await org.owner.http.delete(`${base(issue)}/${a.id}`).expect(404);
    await org.owner.http.get(a.url).expect(404);
    // queued under its organization (storage_deletions is keyed by org_id: docs/CITUS.md)
    expect(await t.db.query('SELECT 1 FROM storage_deletions WHERE org_id = $1 AND storage_key = $2', [org.id, key])).toHaveLength(1);
    // a queued key the storage refuses: kept with the error and a later attempt
    await t.db.query(`INSERT INTO storage_deletions (org_id, storage_key) VALUES ($1, '../../etc/passwd')`, [org.id]);
    const sweeper = new StorageDeletionSweeper(t.db, t.app.get(ObjectStorage), t.app.get(StorageDeletionsRepository));
    const r = await sweeper.sweep();
    expect(r.removed).toBeGreaterThanOrEqual(1);
    expect(r.failed).toBe(1);
    expect(await stored(key)).toBe(false);
    expect(await t.db.query('SELECT 1 FROM storage_deletions WHERE storage_key = $1', [key])).toHaveLength(0);
    const [bad] = await t.db.query(
      `SELECT attempts, last_error, next_attempt_at > now() AS later FROM storage_deletions WHERE storage_key = '../../etc/passwd'`,
    );
    expect(bad).toMatchObject({ attempts: 1, last_error: expect.stringMatching(/Invalid storage key/), later: true });
    expect((await sweeper.sweep()).failed).toBe(0); // not due yet
    await t.db.query(`DELETE FROM storage_deletions WHERE storage_key = '../../etc/passwd'`);
  });

  it('the worker drains the queue through Bull (deleting an issue cascades too)', async () => {
    const issue = await mkIssue(projA.id);
    const a = (await upload(issue, GIF, 'w.gif', 'image/gif').expect(201)).body.attachment;
    const [{ storage_key: key }] = await t.db.query('SELECT storage_key FROM attachments WHERE id = $1', [a.id]);
    await t.db.query('DELETE FROM issues WHERE id = $1', [issue]); // cascade: the trigger queues the object
    expect(await t.db.query('SELECT 1 FROM storage_deletions WHERE storage_key = $1', [key])).toHaveLength(1);
    expect(await stored(key)).toBe(true); // until the worker removes it
    const issue2 = await mkIssue(projA.id);
    const b = (await upload(issue2, GIF, 'w2.gif', 'image/gif').expect(201)).body.attachment;
    const [{ storage_key: key2 }] = await t.db.query('SELECT storage_key FROM attachments WHERE id = $1', [b.id]);
    await org.owner.http.delete(`${base(issue2)}/${b.id}`).expect(200); // requests a sweep job
    // The worker's Bull processor, fed by the API's queue (a second Nest context with its own
    // DataSource cannot share this process, so the processor is wired to a plain Bull consumer;
    // WorkerModule must import AttachmentsWorkerModule).
    expect(readFileSync(join(process.cwd(), 'src/worker.module.ts'), 'utf8')).toMatch(/imports: \[[^\]]*AttachmentsWorkerModule/);
    expect(AttachmentsWorkerModule).toBeDefined();
    const consumer = new Bull(ATTACHMENTS_QUEUE, { redis: t.config.redisUrl, prefix: t.config.queuePrefix });
    try {
      const processor = new StorageDeletionProcessor(new StorageDeletionSweeper(t.db, t.app.get(ObjectStorage), t.app.get(StorageDeletionsRepository)));
      void consumer.process(PROCESS_STORAGE_DELETIONS, () => processor.process());
      await consumer.add(PROCESS_STORAGE_DELETIONS, {}, { removeOnComplete: true, removeOnFail: true });
      const deadline = Date.now() + 15_000;
      let left = 2;
      while (Date.now() < deadline) {
        left = (await t.db.query('SELECT 1 FROM storage_deletions WHERE storage_key = ANY($1)', [[key, key2]])).length;
        if (!left) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(left).toBe(0);
      expect(await stored(key)).toBe(false);
      expect(await stored(key2)).toBe(false);
    } finally {
      await consumer.close();
    }
  });

  it('upload and delete publish attachment.added / attachment.removed activity', async () => {
    const issue = await mkIssue(projA.id);
    const a = (await upload(issue, PNG, 'act.png', 'image/png').expect(201)).body.attachment;
    await org.owner.http.delete(`${base(issue)}/${a.id}`).expect(200);
    let rows: Array<{ action: string; metadata: any }> = [];
    for (let i = 0; i < 20 && rows.length < 2; i++) {
      await new Promise((r) => setTimeout(r, 100));
      rows = await t.db.query('SELECT action, metadata FROM activity_events WHERE issue_id = $1 ORDER BY created_at, action', [issue]);
    }
    expect(rows.map((r) => r.action)).toEqual(['attachment.added', 'attachment.removed']);
    for (const r of rows) expect(r.metadata).toMatchObject({ attachment_id: a.id, file_name: 'act.png' });
  });
});

describe('attachments: concurrent uploads are bounded (UPLOAD_MAX_CONCURRENT)', () => {
  let t: TestApp;
  let org: TestOrg;
  beforeAll(async () => {
    t = await startTestApp({ UPLOAD_MAX_CONCURRENT: '2' });
    org = await newOrg(t);
  });
  afterAll(() => t.close());

  it('above the bound an upload is 503 uploads_busy with Retry-After; a freed slot is usable again', async () => {
    const proj = await newProject(t, org);
    const issue = (await org.owner.http.post(`/api/orgs/${org.id}/issues`).send({ title: 'busy', projectId: proj.id }).expect(201)).body.issue.id;
    const url = `/api/orgs/${org.id}/issues/${issue}/attachments`;
    const login = await t.http().post('/api/auth/login').send({ email: org.owner.email, password: org.owner.password }).expect(200);
    const cookie = String(login.headers['set-cookie'][0]).split(';')[0];
    const server = t.app.getHttpServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const slots = t.app.get(UploadSlots);
    const part = '--XyZ\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\nhello';
    // two uploads that keep their connection open mid-body hold both slots
    const held: Socket[] = [];
    for (let i = 0; i < 2; i++) {
      const s = connect(port, '127.0.0.1');
      s.on('error', () => undefined);
      s.write(
        `POST ${url} HTTP/1.1\r\nHost: x\r\nCookie: ${cookie}\r\nContent-Type: multipart/form-data; boundary=XyZ\r\nContent-Length: 100000\r\n\r\n${part}`,
      );
      held.push(s);
    }
    for (let i = 0; i < 200 && slots.inUse < 2; i++) await new Promise((r) => setTimeout(r, 25));
    expect(slots.inUse).toBe(2);
    const busy = await org.owner.http.post(url).attach('file', Buffer.from('x'), { filename: 'c.txt' }).expect(503);
    expect(busy.body).toEqual({ error: expect.stringMatching(/uploads/i), code: 'uploads_busy', retryAfterSeconds: 1 });
    expect(busy.headers['retry-after']).toBe('1');
    // other routes are not affected
    await org.owner.http.get(url).expect(200);
    for (const s of held) s.destroy();
    for (let i = 0; i < 200 && slots.inUse > 0; i++) await new Promise((r) => setTimeout(r, 25));
    expect(slots.inUse).toBe(0);
    await org.owner.http.post(url).attach('file', Buffer.from('x'), { filename: 'c.txt' }).expect(201);
    expect(await t.db.query('SELECT 1 FROM attachments WHERE org_id = $1 AND issue_id = $2', [org.id, issue])).toHaveLength(1);
  });
});
