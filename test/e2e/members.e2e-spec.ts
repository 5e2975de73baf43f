import { startTestApp, type TestApp } from '../support/app';
import { addMember, newOrg, newUser, type TestOrg, type TestUser } from '../support/factories';
import { withoutDetails } from '../support/errors';

describe('members', () => {
  let t: TestApp;
  let org: TestOrg;
  let admin: TestUser;
  let member: TestUser;
  let guest: TestUser;
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    t = await startTestApp();
    org = await newOrg(t);
    admin = await newUser(t, 'admin');
    member = await newUser(t, 'member');
    guest = await newUser(t, 'guest');
    ids.admin = await addMember(t, org, admin, 'admin');
    ids.member = await addMember(t, org, member, 'member');
    ids.guest = await addMember(t, org, guest, 'guest');
    ids.owner = org.ownerMemberId;
  });
  afterAll(() => t.close());

  it('legacy list by default (no envelope); owners see guests and emails, members see neither', async () => {
    const res = await org.owner.http.get(`/api/orgs/${org.id}/members`).expect(200);
    expect(res.body.nextOffset).toBeUndefined();
    const listed = res.body.members.map((m: { id: string }) => m.id);
    expect(listed).toEqual(expect.arrayContaining([ids.owner, ids.admin, ids.member, ids.guest]));
    expect(res.body.members.find((m: { id: string }) => m.id === ids.member).email).toBe(member.email);
    const asMember = await member.http.get(`/api/orgs/${org.id}/members`).expect(200);
    expect(asMember.body.members.map((m: { id: string }) => m.id)).not.toContain(ids.guest);
    expect(JSON.stringify(asMember.body)).not.toContain('@example.com');
  });

  it('directory mode: five fields only, exact total, paging, guests excluded, includeEmail ignored', async () => {
    for (const q of ['shape=envelope', 'limit=10', 'offset=0', 'q=e']) {
      const r = await org.owner.http.get(`/api/orgs/${org.id}/members?${q}`).expect(200);
      expect(r.body).toEqual(
        expect.objectContaining({ resource: 'members', total: expect.any(Number), nextOffset: null, truncated: false, items: expect.any(Array) }),
      );
      expect(r.body).toHaveProperty('hint');
    }
    const all = await org.owner.http.get(`/api/orgs/${org.id}/members?shape=envelope&limit=100&includeEmail=1`).expect(200);
    expect(all.body.total).toBe(3);
    for (const it of all.body.items) expect(Object.keys(it).sort()).toEqual(['avatar_url', 'display_name', 'id', 'role', 'type']);
    expect(all.body.items.map((i: { id: string }) => i.id)).not.toContain(ids.guest);
    expect(JSON.stringify(all.body)).not.toContain('@example.com');
    const p1 = await org.owner.http.get(`/api/orgs/${org.id}/members?limit=2`).expect(200);
    expect(p1.body).toMatchObject({ total: 3, limit: 2, offset: 0, nextOffset: 2, truncated: true });
    expect(p1.body.hint).toEqual(expect.any(String));
    const p2 = await org.owner.http.get(`/api/orgs/${org.id}/members?limit=2&offset=2`).expect(200);
    expect(p2.body).toMatchObject({ total: 3, nextOffset: null, truncated: false });
    expect(p2.body.items).toHaveLength(1);
    const beyond = await org.owner.http.get(`/api/orgs/${org.id}/members?limit=2&offset=50`).expect(200);
    expect(beyond.body).toMatchObject({ total: 3, items: [] });
    const clamped = await org.owner.http.get(`/api/orgs/${org.id}/members?limit=1000`).expect(200);
    expect(clamped.body.limit).toBe(100);
    const search = await org.owner.http.get(`/api/orgs/${org.id}/members?q=${encodeURIComponent(member.name.toUpperCase())}`).expect(200);
    expect(search.body.items.map((i: { id: string }) => i.id)).toEqual([ids.member]);
    const wild = await org.owner.http.get(`/api/orgs/${org.id}/members?q=%25`).expect(200);
    expect(wild.body.total).toBe(0);
    const humans = await org.owner.http.get(`/api/orgs/${org.id}/members?shape=envelope&type=agent`).expect(200);
    expect(humans.body.total).toBe(0);
  });

  it('directory rejects bad parameters with 400', async () => {
    for (const q of ['limit=-1', 'limit=abc', 'offset=-1', 'offset=x', 'type=robot', 'limit=1&limit=2', `q=${'q'.repeat(300)}`, 'q=%00']) {
      const r = await org.owner.http.get(`/api/orgs/${org.id}/members?${q}`).expect(400);
      expect(r.body.error).toEqual(expect.any(String));
    }
    // NUL is refused before the search reaches PostgreSQL, naming the parameter
    const nul = await org.owner.http.get(`/api/orgs/${org.id}/members?q=a%00b`).expect(400);
    expect(withoutDetails(nul.body)).toEqual({ error: 'q must not contain NUL characters', code: 'validation_failed' });
    await org.owner.http.get(`/api/orgs/${org.id}/members?projectId=not-a-uuid`).expect(404);
  });

  it('adding is inviting: owners/admins only; any email gets a pending invitation; the invitee accepts; members 409; bad role 400', async () => {
    const u = await newUser(t, 'newbie');
    await member.http.post(`/api/orgs/${org.id}/members`).send({ email: u.email }).expect(403);
    await guest.http.post(`/api/orgs/${org.id}/members`).send({ email: u.email }).expect(403);
    await admin.http.post(`/api/orgs/${org.id}/members`).send({ email: u.email, role: 'owner' }).expect(400);
    await org.owner.http.post(`/api/orgs/${org.id}/members`).send({ email: u.email, role: 'god' }).expect(400);
    await org.owner.http.post(`/api/orgs/${org.id}/members`).send({ email: 123 }).expect(400);
    const nobody = await org.owner.http.post(`/api/orgs/${org.id}/members`).send({ email: 'nobody-here@example.com' }).expect(201);
    expect(nobody.body.invitation).toMatchObject({ email: 'nobody-here@example.com', role: 'member', status: 'pending' });
    // a lone surrogate once reached the email validator's encodeURI (URIError, a 500)
    for (const email of ['\ud800', `${u.email}\udfff`]) {
      const bad = await org.owner.http.post(`/api/orgs/${org.id}/members`).send({ email }).expect(400);
      expect(withoutDetails(bad.body)).toEqual({ error: expect.any(String), code: 'validation_failed' });
    }
    const r = await admin.http.post(`/api/orgs/${org.id}/members`).send({ email: u.email.toUpperCase() }).expect(201);
    expect(r.body.member).toBeUndefined();
    await u.http.get(`/api/orgs/${org.id}`).expect(404); // not a member until it accepts
    const a = await u.http.post(`/api/invitations/${r.body.invitation.id}/accept`).expect(200);
    expect(a.body.member).toMatchObject({ type: 'human', role: 'member', display_name: u.name });
    await org.owner.http.post(`/api/orgs/${org.id}/members`).send({ email: u.email }).expect(409);
    // the new member sees the organization on the next request
    await u.http.get(`/api/orgs/${org.id}`).expect(200);
  });

  it('role changes apply on the next request; only owners grant owner; the last owner stays', async () => {
    const o = await newOrg(t);
    const u = await newUser(t, 'promo');
    const mid = await addMember(t, o, u, 'member');
    await u.http.patch(`/api/orgs/${o.id}`).send({ name: 'x' }).expect(403);
    await o.owner.http.patch(`/api/orgs/${o.id}/members/${mid}`).send({ role: 'admin' }).expect(200);
    await u.http.patch(`/api/orgs/${o.id}`).send({ name: 'now allowed' }).expect(200);
    await u.http.patch(`/api/orgs/${o.id}/members/${mid}`).send({ role: 'owner' }).expect(403);
    await u.http.patch(`/api/orgs/${o.id}/members/${o.ownerMemberId}`).send({ role: 'member' }).expect(403);
    const last = await o.owner.http.patch(`/api/orgs/${o.id}/members/${o.ownerMemberId}`).send({ role: 'admin' }).expect(409);
    expect(last.body.code).toBe('last_owner');
    await o.owner.http.delete(`/api/orgs/${o.id}/members/${o.ownerMemberId}`).expect(409);
    await o.owner.http.patch(`/api/orgs/${o.id}/members/${mid}`).send({ role: 'owner' }).expect(200);
    await o.owner.http.patch(`/api/orgs/${o.id}/members/${o.ownerMemberId}`).send({ role: 'member' }).expect(200);
    await o.owner.http.patch(`/api/orgs/${o.id}`).send({ name: 'demoted' }).expect(403);
    await o.owner.http.patch(`/api/orgs/${o.id}/members/${mid}`).send({ role: 'nope' }).expect(400);
    await o.owner.http.patch(`/api/orgs/${o.id}/members/${mid}`).send({ display_name: '   ' }).expect(400);
  });

  it('the database itself refuses to leave an organization without an owner', async () => {
    const o = await newOrg(t);
    await expect(t.db.query(`UPDATE members SET role = 'admin' WHERE org_id = $1`, [o.id])).rejects.toThrow(/must keep an owner/);
  });

  it('display name: self or admins; removal: admins or self; removed members lose access at once', async () => {
    const o = await newOrg(t);
    const a = await newUser(t, 'a');
    const b = await newUser(t, 'b');
    const aid = await addMember(t, o, a, 'member');
    const bid = await addMember(t, o, b, 'member');
    const r = await a.http.patch(`/api/orgs/${o.id}/members/${aid}`).send({ displayName: 'Alice Renamed' }).expect(200);
    expect(r.body.member.display_name).toBe('Alice Renamed');
    await a.http.patch(`/api/orgs/${o.id}/members/${bid}`).send({ display_name: 'Hacked' }).expect(403);
    await a.http.delete(`/api/orgs/${o.id}/members/${bid}`).expect(403);
    await o.owner.http.delete(`/api/orgs/${o.id}/members/${bid}`).expect(200);
    await b.http.get(`/api/orgs/${o.id}`).expect(404);
    await o.owner.http.delete(`/api/orgs/${o.id}/members/${bid}`).expect(404);
    await a.http.delete(`/api/orgs/${o.id}/members/${aid}`).expect(200); // leaving
    await a.http.get(`/api/orgs/${o.id}/members`).expect(404);
    // a removed member can be added back (invited again; accepting brings back the same record)
    await addMember(t, o, b, 'guest');
    const p = await b.http.get(`/api/orgs/${o.id}/profile`).expect(200);
    expect(p.body.member).toMatchObject({ id: bid, role: 'guest', email: b.email, org_id: o.id, user_id: b.userId });
  });

  it('ids from another organization are 404', async () => {
    const other = await newOrg(t);
    await org.owner.http.patch(`/api/orgs/${org.id}/members/${other.ownerMemberId}`).send({ role: 'admin' }).expect(404);
    await org.owner.http.delete(`/api/orgs/${org.id}/members/${other.ownerMemberId}`).expect(404);
    await org.owner.http.patch(`/api/orgs/${org.id}/members/not-a-uuid`).send({ role: 'admin' }).expect(404);
  });
});
