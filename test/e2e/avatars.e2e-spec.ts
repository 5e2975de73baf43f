import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { jest } from '@jest/globals';
import Bull from 'bull';
import { newStorageKey, ObjectStorage } from '../../src/common/storage/object-storage';
import { AvatarCleanupProcessor } from '../../src/modules/members/avatar-cleanup.processor';
import { AvatarCleanupScheduler } from '../../src/modules/members/avatar-cleanup.scheduler';
import { AvatarCleanupSweeper } from '../../src/modules/members/avatar-cleanup.sweeper';
import { AVATARS_QUEUE, PROCESS_AVATAR_CLEANUPS } from '../../src/modules/members/avatars.constants';
import { startTestApp, type TestApp } from '../support/app';
import { addMember, bearer, newAgent, newOrg, newUser, type TestOrg, type TestUser } from '../support/factories';
import { GIF_WITH_METADATA, JPEG_WITH_METADATA, PNG_1x1, PNG_WITH_METADATA, pngOfSize, WEBP_WITH_METADATA } from '../support/images';
import { startTestS3, type TestS3 } from '../support/s3-server';

const MB2 = 2 * 1024 * 1024;
const binary = (res: any, cb: (e: Error | null, b: Buffer) => void) => {
  const chunks: Buffer[] = [];
  res.on('data', (c: Buffer) => chunks.push(c));
  res.on('end', () => cb(null, Buffer.concat(chunks)));
};
const path = (orgId: string, memberId: string) => `/api/orgs/${orgId}/members/${memberId}/avatar`;

/** Waits (generous deadline, no fixed sleeps) until `n` backends wait on a lock running an avatar pointer swap. */
async function waitForBlockedSwaps(t: TestApp, n: number, settled: unknown[]): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (settled.length) throw new Error(`a racing request ended before the race: ${JSON.stringify(settled)}`);
    const [{ c }] = await t.db.query(
      `SELECT count(*)::int AS c FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE 'UPDATE members SET avatar_storage_key%'`,
    );
    if (c >= n) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`fewer than ${n} avatar swaps blocked`);
}

/** Holds the member row locked while `run` starts requests, until `n` swaps wait; then lets them race. */
async function race<T>(t: TestApp, orgId: string, memberId: string, n: number, run: () => Array<Promise<T>>): Promise<T[]> {
  const qr = t.db.createQueryRunner();
  await qr.connect();
  await qr.startTransaction();
  let pending: Array<Promise<T>>;
  try {
    await qr.query('SELECT 1 FROM members WHERE org_id = $1 AND id = $2 FOR UPDATE', [orgId, memberId]);
    const settled: unknown[] = [];
    pending = run();
    for (const p of pending)
      void p.then(
        (r: any) => settled.push({ status: r?.status, body: r?.body }),
        (e: Error) => settled.push(e.message),
      );
    await waitForBlockedSwaps(t, n, settled);
  } finally {
    await qr.commitTransaction();
    await qr.release();
  }
  return Promise.all(pending);
}

describe('avatars (postgres storage)', () => {
  let t: TestApp;
  let org: TestOrg;
  let other: TestOrg;
  let member: TestUser;
  let memberId: string;
  let admin: TestUser;
  let guest: TestUser;
  let guestId: string;

  const upload = (who: TestUser, o: TestOrg, target: string, bytes: Buffer, filename = 'me.png', contentType = 'image/png') =>
    who.http.post(path(o.id, target)).attach('file', bytes, { filename, contentType });
  const pointer = async (id: string): Promise<{ avatar_storage_key: string | null; avatar_url: string | null }> =>
    (await t.db.query('SELECT avatar_storage_key, avatar_url FROM members WHERE id = $1', [id]))[0];
  const objectsOf = async (o: TestOrg): Promise<string[]> =>
    (await t.db.query('SELECT key FROM stored_objects WHERE org_id = $1 ORDER BY key', [o.id])).map((r: { key: string }) => r.key);
  const queued = async (o: TestOrg): Promise<number> => (await t.db.query('SELECT count(*)::int AS n FROM avatar_cleanups WHERE org_id = $1', [o.id]))[0].n;

  beforeAll(async () => {
    t = await startTestApp();
    org = await newOrg(t);
    other = await newOrg(t);
    member = await newUser(t, 'member');
    admin = await newUser(t, 'admin');
    guest = await newUser(t, 'guest');
    memberId = await addMember(t, org, member, 'member');
    await addMember(t, org, admin, 'admin');
    guestId = await addMember(t, org, guest, 'guest');
  });
  afterAll(() => t.close());

  it('POST stores a PNG: 200 with exactly { member: { id, avatar_url } }; the URL serves the stripped image; the directory shows it', async () => {
    const res = await upload(org.owner, org, org.ownerMemberId, PNG_WITH_METADATA).expect(200);
    expect(Object.keys(res.body)).toEqual(['member']);
    expect(res.body.member).toEqual({ id: org.ownerMemberId, avatar_url: expect.stringMatching(new RegExp(`^/api/avatars/${org.id}/[0-9a-f]{48}$`)) });
    const img = await t.http().get(res.body.member.avatar_url).buffer(true).parse(binary).expect(200);
    expect(img.headers['content-type']).toBe('image/png');
    expect(img.headers['x-content-type-options']).toBe('nosniff');
    expect(Buffer.from(img.body).equals(PNG_1x1)).toBe(true); // metadata chunks removed
    const dir = await member.http.get(`/api/orgs/${org.id}/members?shape=envelope`).expect(200);
    expect(dir.body.items.find((i: any) => i.id === org.ownerMemberId).avatar_url).toBe(res.body.member.avatar_url);
    expect(await objectsOf(org)).toEqual([(await pointer(org.ownerMemberId)).avatar_storage_key]);
  });

  it('types come from the signature, not the declared type; JPEG, GIF and WebP lose their metadata', async () => {
    for (const [bytes, type, declared] of [
      [JPEG_WITH_METADATA, 'image/jpeg', 'image/png'],
      [GIF_WITH_METADATA, 'image/gif', 'application/octet-stream'],
      [WEBP_WITH_METADATA, 'image/webp', 'image/jpeg'],
      [PNG_1x1, 'image/png', 'text/plain'],
    ] as const) {
      const res = await upload(member, org, memberId, bytes, 'x.bin', declared).expect(200);
      const img = await t.http().get(res.body.member.avatar_url).buffer(true).parse(binary).expect(200);
      expect(img.headers['content-type']).toBe(type);
      expect(Buffer.from(img.body).includes(Buffer.from('secret'))).toBe(false);
    }
  });

  it('bad input is a 4xx: not an image, SVG, malformed, empty, not multipart, no file field; 2 MB is accepted, one byte more is 413', async () => {
    for (const [bytes, name, type] of [
      [Buffer.from('hello, not an image'), 'me.png', 'image/png'],
      [Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'), 'me.svg', 'image/svg+xml'],
      [PNG_1x1.subarray(0, 50), 'me.png', 'image/png'],
      [Buffer.from('GIF89a'), 'a.gif', 'image/gif'],
    ] as const) {
      const res = await upload(member, org, memberId, bytes, name, type).expect(400);
      expect(res.body.code).toBe('validation_failed');
    }
    await member.http.post(path(org.id, memberId)).attach('file', Buffer.alloc(0), { filename: 'e.png', contentType: 'image/png' }).expect(400);
    await member.http.post(path(org.id, memberId)).send({ file: 'x' }).expect(400);
    await member.http.post(path(org.id, memberId)).attach('picture', PNG_1x1, { filename: 'a.png', contentType: 'image/png' }).expect(400);
    const exact = await upload(member, org, memberId, pngOfSize(MB2)).expect(200);
    expect(exact.body.member.id).toBe(memberId);
    const over = await upload(member, org, memberId, pngOfSize(MB2 + 1)).expect(413);
    expect(over.body.code).toBe('payload_too_large');
    await upload(member, org, memberId, Buffer.concat([PNG_1x1, Buffer.alloc(Math.ceil(2.5 * 1024 * 1024))])).expect(413);
    expect((await pointer(memberId)).avatar_url).toBe(exact.body.member.avatar_url); // nothing changed
  });

  it('replacing removes the old object at once (200): the old URL is 404, one object and no queue row left', async () => {
    const first = (await upload(guest, org, guestId, PNG_1x1).expect(200)).body.member.avatar_url;
    const second = (await upload(guest, org, guestId, GIF_WITH_METADATA, 'a.gif', 'image/gif').expect(200)).body.member.avatar_url;
    expect(second).not.toBe(first);
    await t.http().get(first).expect(404);
    await t.http().get(second).expect(200);
    const keys = await t.db.query('SELECT key FROM stored_objects WHERE org_id = $1 AND key = $2', [org.id, (await pointer(guestId)).avatar_storage_key]);
    expect(keys).toHaveLength(1);
    expect(await t.db.query('SELECT 1 FROM stored_objects WHERE key = $1', [first.slice('/api/avatars/'.length)])).toHaveLength(0);
    expect(await queued(org)).toBe(0);
  });

  it('DELETE: 200 { success: true }, the URL is 404, the object is gone; again (nothing to remove) 200', async () => {
    const url = (await upload(guest, org, guestId, PNG_1x1).expect(200)).body.member.avatar_url;
    const res = await guest.http.delete(path(org.id, guestId)).expect(200);
    expect(res.body).toEqual({ success: true });
    expect(await pointer(guestId)).toEqual({ avatar_storage_key: null, avatar_url: null });
    await t.http().get(url).expect(404);
    expect(await t.db.query('SELECT 1 FROM stored_objects WHERE key = $1', [url.slice('/api/avatars/'.length)])).toHaveLength(0);
    expect((await guest.http.delete(path(org.id, guestId)).expect(200)).body).toEqual({ success: true });
    expect(await queued(org)).toBe(0);
  });

  it('who may change whose avatar: self and owners/admins; others 403; outside the organization 404; anonymous 401', async () => {
    await upload(admin, org, memberId, PNG_1x1).expect(200); // admin → member
    await upload(org.owner, org, memberId, PNG_1x1).expect(200); // owner → member
    const before = await pointer(org.ownerMemberId);
    expect((await upload(member, org, org.ownerMemberId, PNG_1x1).expect(403)).body.code).toBe('forbidden');
    expect((await member.http.delete(path(org.id, org.ownerMemberId)).expect(403)).body.code).toBe('forbidden');
    await upload(guest, org, memberId, PNG_1x1).expect(403);
    expect(await pointer(org.ownerMemberId)).toEqual(before);
    await upload(other.owner, org, memberId, PNG_1x1).expect(404); // caller not a member of the path organization
    await upload(org.owner, org, other.ownerMemberId, PNG_1x1).expect(404); // target of another organization
    await org.owner.http.delete(path(org.id, other.ownerMemberId)).expect(404);
    await upload(org.owner, org, randomUUID(), PNG_1x1).expect(404);
    await org.owner.http.delete(path(org.id, 'not-a-uuid')).expect(404);
    await t.http().post(path(org.id, memberId)).attach('file', PNG_1x1, { filename: 'a.png', contentType: 'image/png' }).expect(401);
    await t.http().delete(path(org.id, memberId)).expect(401);
    // agents: their own avatar yes, a human's no (a member-role agent)
    const agent = await newAgent(t, org, { role: 'member' });
    const api = bearer(t, agent.key);
    await api.post(path(org.id, agent.memberId)).attach('file', PNG_1x1, { filename: 'a.png', contentType: 'image/png' }).expect(200);
    await api.post(path(org.id, memberId)).attach('file', PNG_1x1, { filename: 'a.png', contentType: 'image/png' }).expect(403);
    expect((await api.delete(path(org.id, agent.memberId)).expect(200)).body).toEqual({ success: true });
    // a removed member has no avatar to change
    const gone = await newUser(t, 'gone');
    const goneId = await addMember(t, org, gone, 'member');
    await org.owner.http.delete(`/api/orgs/${org.id}/members/${goneId}`).expect(200);
    await upload(org.owner, org, goneId, PNG_1x1).expect(404);
  });

  it('the avatar route serves only current avatars: other stored objects and bad ids are 404', async () => {
    const key = newStorageKey(org.id);
    await t.app.get(ObjectStorage).put(key, Readable.from([PNG_1x1]));
    await t.http().get(`/api/avatars/${key}`).expect(404); // stored, but nobody's avatar (e.g. an attachment)
    await t.app.get(ObjectStorage).delete(key);
    await t.http().get(`/api/avatars/${org.id}/nothex`).expect(404);
    await t
      .http()
      .get(`/api/avatars/not-a-uuid/${randomBytes(24).toString('hex')}`)
      .expect(404);
    const mine = (await upload(member, org, memberId, PNG_1x1).expect(200)).body.member.avatar_url as string;
    await t.http().get(mine.replace(org.id, other.id)).expect(404); // the right object under another organization
  });

  it('two uploads at once: one pointer wins (200), the other is 409 { error } and leaves no object behind', async () => {
    await member.http.delete(path(org.id, memberId)).expect(200);
    for (let round = 0; round < 3; round++) {
      const [a, b] = await race(t, org.id, memberId, 2, () => [
        upload(member, org, memberId, PNG_1x1).then((r) => r),
        upload(org.owner, org, memberId, GIF_WITH_METADATA, 'g.gif', 'image/gif').then((r) => r),
      ]);
      const statuses = [a.status, b.status].sort();
      expect(statuses).toEqual([200, 409]);
      const [win, lose] = a.status === 200 ? [a, b] : [b, a];
      expect(lose.body).toEqual({ error: 'Avatar changed concurrently' });
      const p = await pointer(memberId);
      expect(p.avatar_url).toBe(win.body.member.avatar_url);
      const mine = await t.db.query(`SELECT key FROM stored_objects WHERE org_id = $1 AND key = $2`, [org.id, p.avatar_storage_key]);
      expect(mine).toHaveLength(1);
    }
    // every object of the organization is someone's current avatar: no orphan
    const shown = (await t.db.query('SELECT avatar_storage_key AS k FROM members WHERE org_id = $1 AND avatar_storage_key IS NOT NULL', [org.id])).map(
      (r: { k: string }) => r.k,
    );
    expect((await objectsOf(org)).sort()).toEqual(shown.sort());
    expect(await queued(org)).toBe(0);
  });

  it('a delete racing an upload: exactly one wins, the other is 409; no orphan', async () => {
    await upload(member, org, memberId, PNG_1x1).expect(200);
    const [up, del] = await race(t, org.id, memberId, 2, () => [
      upload(member, org, memberId, PNG_1x1),
      member.http.delete(path(org.id, memberId)).then((r) => r),
    ]);
    expect([up.status, del.status].sort()).toEqual([200, 409]);
    const loser = up.status === 409 ? up : del;
    expect(loser.body).toEqual({ error: 'Avatar changed concurrently' });
    const p = await pointer(memberId);
    if (up.status === 200) expect(p.avatar_url).toBe(up.body.member.avatar_url);
    else expect(p).toEqual({ avatar_storage_key: null, avatar_url: null });
    const shown = (await t.db.query('SELECT avatar_storage_key AS k FROM members WHERE org_id = $1 AND avatar_storage_key IS NOT NULL', [org.id])).map(
      (r: { k: string }) => r.k,
    );
    expect((await objectsOf(org)).sort()).toEqual(shown.sort());
  });

  it('when the old object cannot be removed now: 202 with cleanup_pending, kept in the queue, removed by a later sweep', async () => {
    const storage = t.app.get(ObjectStorage);
    const old = (await upload(member, org, memberId, PNG_1x1).expect(200)).body.member.avatar_url as string;
    const spy = jest.spyOn(storage, 'delete').mockRejectedValueOnce(new Error('storage unavailable'));
    const res = await upload(member, org, memberId, PNG_1x1).expect(202);
    expect(res.body).toEqual({ member: { id: memberId, avatar_url: expect.any(String) }, cleanup_pending: true });
    const [row] = await t.db.query('SELECT kind, attempts, last_error FROM avatar_cleanups WHERE org_id = $1', [org.id]);
    expect(row).toEqual({ kind: 'retired', attempts: 1, last_error: 'storage unavailable' });
    await t.http().get(old).expect(404); // no longer anyone's avatar, even before removal
    spy.mockRejectedValueOnce(new Error('storage unavailable'));
    expect((await member.http.delete(path(org.id, memberId)).expect(202)).body).toEqual({ success: true, cleanup_pending: true });
    spy.mockRestore();
    await t.db.query('UPDATE avatar_cleanups SET next_attempt_at = now() WHERE org_id = $1', [org.id]);
    // the sweep takes every due row of the database (earlier tests' leftovers too): this org's two are among them
    const r = await t.app.get(AvatarCleanupSweeper).sweep();
    expect(r.failed).toBe(0);
    expect(r.removed).toBeGreaterThanOrEqual(2);
    expect(await queued(org)).toBe(0);
    const shown = (await t.db.query('SELECT avatar_storage_key AS k FROM members WHERE org_id = $1 AND avatar_storage_key IS NOT NULL', [org.id])).map(
      (r: { k: string }) => r.k,
    );
    expect((await objectsOf(org)).sort()).toEqual(shown.sort());
  });

  it('deleting an organization queues its members’ avatars (the queue outlives it) and the sweep clears them', async () => {
    const o = await newOrg(t);
    await upload(o.owner, o, o.ownerMemberId, PNG_1x1).expect(200);
    const [{ avatar_storage_key: key }] = await t.db.query('SELECT avatar_storage_key FROM members WHERE id = $1', [o.ownerMemberId]);
    await o.owner.http.delete(`/api/orgs/${o.id}`).expect(200);
    expect(await t.db.query('SELECT kind FROM avatar_cleanups WHERE org_id = $1 AND storage_key = $2', [o.id, key])).toEqual([{ kind: 'retired' }]);
    const r = await t.app.get(AvatarCleanupSweeper).sweep();
    expect(r.failed).toBe(0);
    expect(await queued(o)).toBe(0);
    expect(await t.app.get(ObjectStorage).get(key)).toBeNull();
  });

  it('deleting a member row queues its avatar; the worker job (every 15 minutes) removes it through Bull', async () => {
    expect(readFileSync(join(process.cwd(), 'src/worker.module.ts'), 'utf8')).toMatch(/imports: \[[^\]]*AvatarsWorkerModule/);
    // the schedule: every 15 minutes, one job id per quarter hour (several workers enqueue it once)
    const cron = Reflect.getMetadata('SCHEDULE_CRON_OPTIONS', AvatarCleanupScheduler.prototype.enqueueSweep) as { cronTime: string } | undefined;
    expect(cron?.cronTime).toBe('0 */15 * * * *');
    const added: Array<{ name: string; opts: { jobId: string } }> = [];
    const scheduler = new AvatarCleanupScheduler({
      add: async (name: string, _d: unknown, opts: { jobId: string }) => void added.push({ name, opts }),
    } as never);
    await scheduler.enqueueSweep();
    await scheduler.enqueueSweep();
    expect(added).toHaveLength(2);
    expect(added[0].name).toBe(PROCESS_AVATAR_CLEANUPS);
    expect(added[0].opts.jobId).toMatch(/^process-avatar-cleanups:\d{4}-\d{2}-\d{2}T\d{2}:(00|15|30|45)$/);
    const o = await newOrg(t);
    await upload(o.owner, o, o.ownerMemberId, PNG_1x1).expect(200);
    const [{ avatar_storage_key: key }] = await t.db.query('SELECT avatar_storage_key FROM members WHERE id = $1', [o.ownerMemberId]);
    // an S3-like store keeps objects after the organization is gone: queue first, then check the removal through the store
    await t.db.query(`UPDATE members SET avatar_storage_key = NULL, avatar_url = NULL WHERE org_id = $1`, [o.id]);
    await t.db.query(`UPDATE members SET avatar_storage_key = $2 WHERE org_id = $1 AND id = $3`, [o.id, key, o.ownerMemberId]);
    await t.db.query('ALTER TABLE members DISABLE TRIGGER members_last_owner');
    try {
      await t.db.query('DELETE FROM members WHERE org_id = $1 AND id = $2', [o.id, o.ownerMemberId]);
    } finally {
      await t.db.query('ALTER TABLE members ENABLE TRIGGER members_last_owner');
    }
    expect(await t.db.query(`SELECT kind FROM avatar_cleanups WHERE org_id = $1 AND storage_key = $2`, [o.id, key])).toEqual([{ kind: 'retired' }]);
    const consumer = new Bull(AVATARS_QUEUE, { redis: t.config.redisUrl, prefix: t.config.queuePrefix });
    try {
      const processor = new AvatarCleanupProcessor(t.app.get(AvatarCleanupSweeper));
      void consumer.process(PROCESS_AVATAR_CLEANUPS, () => processor.process());
      await consumer.add(PROCESS_AVATAR_CLEANUPS, {}, { removeOnComplete: true, removeOnFail: true });
      const deadline = Date.now() + 60_000;
      while (Date.now() < deadline && (await queued(o)) > 0) await new Promise((r) => setTimeout(r, 100));
      expect(await queued(o)).toBe(0);
      expect(await t.app.get(ObjectStorage).get(key)).toBeNull();
    } finally {
      await consumer.close();
    }
  });
});

describe('avatars with the s3 storage driver (staged uploads)', () => {
  let s3: TestS3;
  let t: TestApp;
  let org: TestOrg;
  const upload = (who: TestUser, target: string, bytes: Buffer) =>
    who.http.post(path(org.id, target)).attach('file', bytes, { filename: 'a.png', contentType: 'image/png' });
  const keysOf = async (): Promise<string[]> => (await s3.keys(`${org.id}/`)).sort();
  const shown = async (): Promise<string[]> =>
    (await t.db.query('SELECT avatar_storage_key AS k FROM members WHERE org_id = $1 AND avatar_storage_key IS NOT NULL', [org.id]))
      .map((r: { k: string }) => r.k)
      .sort();

  beforeAll(async () => {
    s3 = await startTestS3();
    t = await startTestApp(s3.env);
    org = await newOrg(t);
  });
  afterAll(async () => {
    await t?.close();
    await s3?.stop();
  });

  it('upload, replace and delete keep exactly the current object in the bucket', async () => {
    const a = (await upload(org.owner, org.ownerMemberId, PNG_WITH_METADATA).expect(200)).body.member.avatar_url;
    expect(await keysOf()).toEqual(await shown());
    const img = await t.http().get(a).buffer(true).parse(binary).expect(200);
    expect(Buffer.from(img.body).equals(PNG_1x1)).toBe(true);
    await upload(org.owner, org.ownerMemberId, PNG_1x1).expect(200);
    expect(await keysOf()).toEqual(await shown());
    expect(await t.db.query('SELECT 1 FROM avatar_cleanups WHERE org_id = $1', [org.id])).toHaveLength(0);
    await org.owner.http.delete(path(org.id, org.ownerMemberId)).expect(200);
    expect(await keysOf()).toEqual([]);
  });

  it('two uploads at once: one wins, the loser is 409 and its staged object is removed at once', async () => {
    for (let round = 0; round < 2; round++) {
      const [a, b] = await race(t, org.id, org.ownerMemberId, 2, () => [
        upload(org.owner, org.ownerMemberId, PNG_1x1),
        upload(org.owner, org.ownerMemberId, PNG_1x1),
      ]);
      expect([a.status, b.status].sort()).toEqual([200, 409]);
      const lose = a.status === 409 ? a : b;
      expect(lose.body).toEqual({ error: 'Avatar changed concurrently' });
      expect(await keysOf()).toEqual(await shown());
      expect(await t.db.query('SELECT 1 FROM avatar_cleanups WHERE org_id = $1', [org.id])).toHaveLength(0);
    }
  });

  it('a lost race whose staged object cannot be removed is 409 with cleanup_pending; the sweep removes it later', async () => {
    const storage = t.app.get(ObjectStorage);
    const spy = jest.spyOn(storage, 'delete').mockRejectedValueOnce(new Error('s3 down'));
    const [a, b] = await race(t, org.id, org.ownerMemberId, 2, () => [
      upload(org.owner, org.ownerMemberId, PNG_1x1),
      upload(org.owner, org.ownerMemberId, PNG_1x1),
    ]);
    spy.mockRestore();
    const statuses = [a.status, b.status].sort();
    // the failing delete hit either the loser's staged object (409 + cleanup_pending) or the winner's retired one (202)
    expect([
      [200, 409],
      [202, 409],
    ]).toContainEqual(statuses);
    const lose = a.status === 409 ? a : b;
    const win = a.status === 409 ? b : a;
    if (win.status === 202) expect(lose.body).toEqual({ error: 'Avatar changed concurrently' });
    else expect(lose.body).toEqual({ error: 'Avatar changed concurrently', cleanup_pending: true });
    expect(await t.db.query('SELECT 1 FROM avatar_cleanups WHERE org_id = $1', [org.id])).toHaveLength(1);
    await t.db.query('UPDATE avatar_cleanups SET next_attempt_at = now() WHERE org_id = $1', [org.id]);
    const swept = await t.app.get(AvatarCleanupSweeper).sweep(); // every due row of the database: this one among them
    expect([swept.failed, swept.removed >= 1]).toEqual([0, true]);
    expect(await t.db.query('SELECT 1 FROM avatar_cleanups WHERE org_id = $1', [org.id])).toHaveLength(0);
    expect(await keysOf()).toEqual(await shown());
  });

  it('an upload that died after storing (crash) leaves a staged row: not swept before its grace, removed after it', async () => {
    const key = newStorageKey(org.id);
    await t.db.query(`INSERT INTO avatar_cleanups (org_id, storage_key, kind, next_attempt_at) VALUES ($1, $2, 'staged', now() + interval '1 hour')`, [
      org.id,
      key,
    ]);
    await t.app.get(ObjectStorage).put(key, Readable.from([PNG_1x1]));
    expect(await t.app.get(AvatarCleanupSweeper).sweep()).toEqual({ removed: 0, failed: 0 });
    expect(await keysOf()).toContain(key);
    await t.db.query('UPDATE avatar_cleanups SET next_attempt_at = now() WHERE org_id = $1', [org.id]);
    const swept = await t.app.get(AvatarCleanupSweeper).sweep(); // every due row of the database: this one among them
    expect([swept.failed, swept.removed >= 1]).toEqual([0, true]);
    expect(await t.db.query('SELECT 1 FROM avatar_cleanups WHERE org_id = $1', [org.id])).toHaveLength(0);
    expect(await keysOf()).toEqual(await shown());
  });
});

describe('Google Chat member disconnect', () => {
  let t: TestApp;
  let org: TestOrg;
  beforeAll(async () => {
    t = await startTestApp();
    org = await newOrg(t);
  });
  afterAll(() => t.close());
  const url = (o: TestOrg) => `/api/orgs/${o.id}/integrations/google-chat/member`;

  it('a human web session disconnects its own link: 200 { ok: true }, idempotent; other links stay', async () => {
    const peer = await newUser(t, 'peer');
    const peerId = await addMember(t, org, peer, 'member');
    for (const id of [org.ownerMemberId, peerId]) {
      await t.db.query(`INSERT INTO chat_member_links (org_id, member_id, provider, external_user_id) VALUES ($1, $2, 'google_chat', $3)`, [
        org.id,
        id,
        `users/${id}`,
      ]);
    }
    expect((await org.owner.http.delete(url(org)).expect(200)).body).toEqual({ ok: true });
    const left = await t.db.query('SELECT member_id FROM chat_member_links WHERE org_id = $1', [org.id]);
    expect(left).toEqual([{ member_id: peerId }]);
    expect((await org.owner.http.delete(url(org)).expect(200)).body).toEqual({ ok: true });
  });

  it('agents (API keys) are 403, anonymous 401, non-members 404', async () => {
    const agent = await newAgent(t, org, { role: 'admin' });
    expect((await bearer(t, agent.key).delete(url(org)).expect(403)).body.code).toBe('forbidden');
    expect((await t.http().delete(url(org)).expect(401)).body).toEqual({ error: 'Unauthorized', code: 'unauthorized' });
    const stranger = await newOrg(t);
    await stranger.owner.http.delete(url(org)).expect(404);
    await org.owner.http.delete(`/api/orgs/not-a-uuid/integrations/google-chat/member`).expect(404);
  });
});
