import { randomBytes } from 'node:crypto';
import { startTestApp, type TestApp } from '../support/app';
import { addMember, bearer, newAgent, newOrg, newUser, randomId, type TestOrg, type TestUser, uniq } from '../support/factories';
import { withoutDetails } from '../support/errors';

/** Invitations replace adding members by email: POST /members invites, the invitee accepts or declines, admins list and revoke. */
describe('invitations', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  const invite = (org: TestOrg, email: string, role?: string, as: TestUser = org.owner) =>
    as.http.post(`/api/orgs/${org.id}/members`).send(role === undefined ? { email } : { email, role });
  const accept = (u: TestUser, id: string) => u.http.post(`/api/invitations/${id}/accept`);
  const decline = (u: TestUser, id: string) => u.http.post(`/api/invitations/${id}/decline`);
  const revoke = (org: TestOrg, id: string, as: TestUser = org.owner) => as.http.delete(`/api/orgs/${org.id}/invitations/${id}`);
  const mine = async (u: TestUser): Promise<Array<{ id: string; status: string; role: string; organization: { id: string; name: string } }>> =>
    (await u.http.get('/api/invitations').expect(200)).body.invitations;
  const orgList = async (org: TestOrg, query = ''): Promise<Array<{ id: string; status: string; member_id: string | null }>> =>
    (await org.owner.http.get(`/api/orgs/${org.id}/invitations${query}`).expect(200)).body.invitations;
  const humansUsed = async (org: TestOrg): Promise<number> => (await org.owner.http.get(`/api/orgs/${org.id}/billing`).expect(200)).body.usage.humans;
  const freshEmail = () => `${uniq('invitee')}@example.com`;

  /** Signs up an account with exactly this email (an invitation may come before the account). */
  async function signupAs(email: string): Promise<TestUser> {
    const http = t.http();
    const password = `pw-${randomBytes(8).toString('hex')}`;
    const name = `later ${randomBytes(2).toString('hex')}`;
    const res = await http.post('/api/auth/signup').send({ email, password, display_name: name }).expect(201);
    return { http, email, password, name, userId: res.body.user.id };
  }

  it('the whole flow: invite → the invitee sees it with its organization → accepts → member with the invited role', async () => {
    const org = await newOrg(t);
    const u = await newUser(t, 'flow');
    const res = await invite(org, u.email, 'admin').expect(201);
    expect(Object.keys(res.body)).toEqual(['invitation']);
    const inv = res.body.invitation;
    expect(Object.keys(inv).sort()).toEqual(['email', 'expires_at', 'id', 'role', 'status']);
    expect(inv).toMatchObject({ email: u.email, role: 'admin', status: 'pending' });
    const days = (Date.parse(inv.expires_at) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.99);
    expect(days).toBeLessThanOrEqual(7);
    // not a member yet: no access, and member listings do not show it
    await u.http.get(`/api/orgs/${org.id}`).expect(404);
    const members = await org.owner.http.get(`/api/orgs/${org.id}/members`).expect(200);
    expect(members.body.members.map((m: { email?: string }) => m.email)).not.toContain(u.email);
    // the invitee sees it, with the organization it is for; nobody else does
    const name = (await org.owner.http.get(`/api/orgs/${org.id}`).expect(200)).body.organization.name;
    expect(await mine(u)).toEqual([expect.objectContaining({ id: inv.id, status: 'pending', role: 'admin', organization: { id: org.id, name } })]);
    expect((await mine(await newUser(t, 'bystander'))).map((i) => i.id)).not.toContain(inv.id);
    // owners and admins list it; it holds a seat
    const listed = (await orgList(org)).find((i) => i.id === inv.id);
    expect(listed).toMatchObject({ status: 'pending', invited_by_member_id: org.ownerMemberId, member_id: null, closed_at: null });
    expect(await humansUsed(org)).toBe(2);

    const acc = await accept(u, inv.id).expect(200);
    expect(acc.body.invitation).toMatchObject({ id: inv.id, status: 'accepted', organization: { id: org.id, name } });
    expect(acc.body.member).toMatchObject({ type: 'human', role: 'admin', display_name: u.name, email: u.email });
    const profile = await u.http.get(`/api/orgs/${org.id}/profile`).expect(200);
    expect(profile.body.member).toMatchObject({ id: acc.body.member.id, role: 'admin', user_id: u.userId });
    await u.http.get(`/api/orgs/${org.id}/invitations`).expect(200); // admins list invitations
    expect(await mine(u)).toEqual([]);
    expect(await orgList(org)).toEqual([]);
    expect(await orgList(org, '?status=accepted')).toEqual([expect.objectContaining({ id: inv.id, member_id: acc.body.member.id })]);
    expect(await humansUsed(org)).toBe(2);
    // member listings keep their shapes
    const list = await org.owner.http.get(`/api/orgs/${org.id}/members`).expect(200);
    expect(Object.keys(list.body).sort()).toEqual(['members', 'total']);
    const item = list.body.members.find((m: { id: string }) => m.id === acc.body.member.id);
    expect(Object.keys(item).sort()).toEqual(['agent_scope', 'avatar_url', 'created_at', 'display_name', 'email', 'id', 'role', 'type']);
    // accepting twice: it is closed
    expect((await accept(u, inv.id).expect(409)).body.code).toBe('invitation_closed');
  });

  it('an invitation can come before the account: signing up with the email shows it (any letter case)', async () => {
    const org = await newOrg(t);
    const email = freshEmail();
    const inv = (await invite(org, `  ${email.toUpperCase()}  `, 'guest').expect(201)).body.invitation;
    expect(inv.email).toBe(email.toUpperCase()); // trimmed, kept as given
    const u = await signupAs(email);
    expect((await mine(u)).map((i) => i.id)).toEqual([inv.id]);
    const acc = await accept(u, inv.id).expect(200);
    expect(acc.body.member.role).toBe('guest');
  });

  it('decline: the invitee says no; nothing is added; it cannot be accepted afterwards', async () => {
    const org = await newOrg(t);
    const u = await newUser(t, 'decliner');
    const inv = (await invite(org, u.email).expect(201)).body.invitation;
    const res = await decline(u, inv.id).expect(200);
    expect(res.body.invitation).toMatchObject({ id: inv.id, status: 'declined', role: 'member', organization: { id: org.id } });
    await u.http.get(`/api/orgs/${org.id}`).expect(404);
    expect(await mine(u)).toEqual([]);
    expect((await accept(u, inv.id).expect(409)).body.code).toBe('invitation_closed');
    expect((await decline(u, inv.id).expect(409)).body.code).toBe('invitation_closed');
    expect(await orgList(org, '?status=declined')).toEqual([expect.objectContaining({ id: inv.id, status: 'declined' })]);
    // declined frees the email: it can be invited again
    await invite(org, u.email).expect(201);
  });

  it('revoke (owners and admins): gone from the invitee, its seat freed, cannot be accepted', async () => {
    const org = await newOrg(t);
    const admin = await newUser(t, 'admin');
    await addMember(t, org, admin, 'admin');
    const u = await newUser(t, 'revoked');
    const inv = (await invite(org, u.email).expect(201)).body.invitation;
    expect(await humansUsed(org)).toBe(3);
    expect((await revoke(org, inv.id, admin).expect(200)).body).toEqual({ success: true });
    expect(await humansUsed(org)).toBe(2);
    expect(await mine(u)).toEqual([]);
    expect((await accept(u, inv.id).expect(409)).body.code).toBe('invitation_closed');
    expect((await revoke(org, inv.id).expect(409)).body.code).toBe('invitation_closed');
    expect(await orgList(org, '?status=revoked')).toEqual([expect.objectContaining({ id: inv.id, status: 'revoked' })]);
    expect((await orgList(org, '?status=all')).map((i) => i.id)).toContain(inv.id);
    await u.http.get(`/api/orgs/${org.id}`).expect(404);
  });

  it('unknown emails get the same answer as registered ones: no way to tell who has an account', async () => {
    const org = await newOrg(t);
    const registered = await newUser(t, 'known');
    const answers = [
      await invite(org, registered.email, 'member'),
      await invite(org, freshEmail(), 'member'),
      await invite(org, registered.email.replace('@', '-nope@'), 'member'),
    ];
    const shape = (r: (typeof answers)[number]) => ({
      status: r.status,
      keys: Object.keys(r.body),
      fields: Object.keys(r.body.invitation),
      role: r.body.invitation.role,
      state: r.body.invitation.status,
      type: r.headers['content-type'],
    });
    expect(answers.map(shape)).toEqual(Array(3).fill(shape(answers[0])));
    expect(answers[0].status).toBe(201);
    // the expiry is the same rule for all (seven days from creation)
    for (const r of answers)
      expect(Math.abs(Date.parse(r.body.invitation.expires_at) - Date.parse(answers[0].body.invitation.expires_at))).toBeLessThan(60_000);
    // and the organization's list shows them alike: nothing says which one has an account
    const listed = await orgList(org);
    expect(listed).toHaveLength(3);
    for (const i of listed) expect(Object.keys(i).sort()).toEqual(Object.keys(listed[0]).sort());
    // a second invitation to any of them is 409 invitation_pending, registered or not
    for (const r of answers) expect((await invite(org, r.body.invitation.email.toUpperCase()).expect(409)).body.code).toBe('invitation_pending');
  });

  it('access: non-members 404, members and guests 403, another account’s invitation 404, agents 403, anonymous 401', async () => {
    const org = await newOrg(t);
    const member = await newUser(t, 'member');
    const guest = await newUser(t, 'guest');
    await addMember(t, org, member, 'member');
    await addMember(t, org, guest, 'guest');
    const outsider = await newUser(t, 'outsider');
    const u = await newUser(t, 'invitee');
    const inv = (await invite(org, u.email).expect(201)).body.invitation;

    for (const x of [member, guest]) {
      const r = await invite(org, freshEmail(), 'member', x).expect(403);
      expect(r.body).toEqual({ error: expect.any(String), code: 'forbidden' });
      await x.http.get(`/api/orgs/${org.id}/invitations`).expect(403);
      await revoke(org, inv.id, x).expect(403);
    }
    await invite(org, freshEmail(), 'member', outsider).expect(404);
    await outsider.http.get(`/api/orgs/${org.id}/invitations`).expect(404);
    await revoke(org, inv.id, outsider).expect(404);
    // another organization's path does not reach it; unknown and malformed ids are 404
    const other = await newOrg(t);
    await revoke(other, inv.id).expect(404);
    await revoke(org, randomId()).expect(404);
    await revoke(org, 'not-a-uuid').expect(404);
    // the invitation is the invitee's alone
    for (const x of [outsider, member, org.owner]) {
      await accept(x, inv.id).expect(404);
      await decline(x, inv.id).expect(404);
    }
    await accept(u, randomId()).expect(404);
    await accept(u, 'not-a-uuid').expect(404);
    // agents have no email: the invitee routes are for human sessions
    const agent = await newAgent(t, org, { role: 'admin' });
    await bearer(t, agent.key).get('/api/invitations').expect(403);
    await bearer(t, agent.key).post(`/api/invitations/${inv.id}/accept`).expect(403);
    const anon = t.http();
    await anon.get('/api/invitations').expect(401);
    await anon.post(`/api/invitations/${inv.id}/accept`).expect(401);
    await anon.post(`/api/orgs/${org.id}/members`).send({ email: u.email }).expect(401);
    // nothing of the above changed it
    expect((await mine(u)).map((i) => i.id)).toEqual([inv.id]);
  });

  it('expiry: after expires_at it reads expired, is not offered, cannot be accepted, holds no seat; the email can be invited again', async () => {
    const org = await newOrg(t);
    const u = await newUser(t, 'late');
    const inv = (await invite(org, u.email).expect(201)).body.invitation;
    expect(await humansUsed(org)).toBe(2);
    await t.db.query(`UPDATE invitations SET created_at = now() - interval '8 days', expires_at = now() - interval '1 day' WHERE org_id = $1 AND id = $2`, [
      org.id,
      inv.id,
    ]);
    expect(await mine(u)).toEqual([]);
    expect(await orgList(org)).toEqual([]);
    expect(await orgList(org, '?status=expired')).toEqual([expect.objectContaining({ id: inv.id, status: 'expired' })]);
    expect(await humansUsed(org)).toBe(1);
    const r = await accept(u, inv.id).expect(409);
    expect(r.body).toMatchObject({ code: 'invitation_expired', error: expect.stringMatching(/expired/) });
    await u.http.get(`/api/orgs/${org.id}`).expect(404);
    const stored = await t.db.query('SELECT status, closed_at FROM invitations WHERE org_id = $1 AND id = $2', [org.id, inv.id]);
    expect(stored[0].status).toBe('expired');
    expect(stored[0].closed_at).not.toBeNull();
    expect((await decline(u, inv.id).expect(409)).body.code).toBe('invitation_expired');
    expect((await revoke(org, inv.id).expect(409)).body.code).toBe('invitation_expired');
    // a lapsed invitation (even one never touched since) does not block a new one
    const v = await newUser(t, 'lapsed');
    const old = (await invite(org, v.email).expect(201)).body.invitation;
    await t.db.query(`UPDATE invitations SET created_at = now() - interval '8 days', expires_at = now() - interval '1 day' WHERE org_id = $1 AND id = $2`, [
      org.id,
      old.id,
    ]);
    const again = (await invite(org, v.email).expect(201)).body.invitation;
    expect(again.id).not.toBe(old.id);
    await accept(v, again.id).expect(200);
  });

  it('plan limit (free: 5 humans) counts members plus pending invitations: 402 at creation and again at acceptance', async () => {
    const org = await newOrg(t);
    await t.db.query(`UPDATE organizations SET plan = 'free' WHERE id = $1`, [org.id]);
    const joined = await newUser(t, 'joined');
    await addMember(t, org, joined, 'member');
    const pending = [];
    for (let i = 0; i < 3; i++) pending.push((await invite(org, freshEmail()).expect(201)).body.invitation);
    expect(await humansUsed(org)).toBe(5);
    const over = await invite(org, freshEmail()).expect(402);
    expect(over.body).toEqual({ error: 'Plan limit reached', code: 'PLAN_LIMIT_REACHED', resource: 'humans', plan: 'free', limit: 5, usage: 5 });
    // revoking frees the seat
    await revoke(org, pending[0].id).expect(200);
    const u = await newUser(t, 'seat');
    const seat = (await invite(org, u.email).expect(201)).body.invitation;
    // at the limit, accepting is fine: the invitation already held its seat
    await accept(u, seat.id).expect(200);
    expect(await humansUsed(org)).toBe(5);

    // acceptance checks again: invitations made under a bigger plan cannot push the organization over the smaller one
    const big = await newOrg(t);
    const invitees = await Promise.all(Array.from({ length: 6 }, (_, i) => newUser(t, `wave${i}`)));
    const invs = [];
    for (const x of invitees) invs.push((await invite(big, x.email).expect(201)).body.invitation);
    await t.db.query(`UPDATE organizations SET plan = 'free' WHERE id = $1`, [big.id]);
    const refused = await accept(invitees[0], invs[0].id).expect(402);
    expect(refused.body).toEqual({ error: 'Plan limit reached', code: 'PLAN_LIMIT_REACHED', resource: 'humans', plan: 'free', limit: 5, usage: 7 });
    await invitees[0].http.get(`/api/orgs/${big.id}`).expect(404);
    expect((await mine(invitees[0])).map((i) => i.id)).toEqual([invs[0].id]); // still pending
    await revoke(big, invs[5].id).expect(200);
    await revoke(big, invs[4].id).expect(200);
    await accept(invitees[0], invs[0].id).expect(200);
    const n = await t.db.query(`SELECT count(*)::int AS n FROM members WHERE org_id = $1 AND removed_at IS NULL`, [big.id]);
    expect(n[0].n).toBe(2);
  });

  it('concurrent invitations cannot overshoot the plan; concurrent duplicates give one invitation and 409s, never a 500', async () => {
    const org = await newOrg(t);
    await t.db.query(`UPDATE organizations SET plan = 'free' WHERE id = $1`, [org.id]);
    const many = await Promise.all(Array.from({ length: 8 }, () => invite(org, freshEmail())));
    expect(many.filter((r) => r.status === 201)).toHaveLength(4);
    expect(many.filter((r) => r.status === 402)).toHaveLength(4);

    const open = await newOrg(t);
    const email = freshEmail();
    const dupes = await Promise.all(Array.from({ length: 6 }, (_, i) => invite(open, i % 2 ? email : email.toUpperCase())));
    expect(dupes.filter((r) => r.status === 201)).toHaveLength(1);
    for (const r of dupes.filter((x) => x.status !== 201)) expect(r.body).toMatchObject({ code: 'invitation_pending' });
  });

  it('already a member: 409 at creation (any letter case) and at acceptance', async () => {
    const org = await newOrg(t);
    expect((await invite(org, org.owner.email).expect(409)).body).toEqual({ error: expect.any(String), code: 'already_member' });
    const u = await newUser(t, 'twice');
    const inv = (await invite(org, u.email).expect(201)).body.invitation;
    await accept(u, inv.id).expect(200);
    expect((await invite(org, u.email.toUpperCase()).expect(409)).body.code).toBe('already_member');
    // an invitation that is somehow still pending for a member (reopened here by hand) is refused at acceptance
    await t.db.query(`UPDATE invitations SET status = 'pending', member_id = NULL, closed_at = NULL WHERE org_id = $1 AND id = $2`, [org.id, inv.id]);
    expect((await accept(u, inv.id).expect(409)).body.code).toBe('already_member');
    // a removed member is a candidate again
    const mid = (await u.http.get(`/api/orgs/${org.id}/profile`).expect(200)).body.member.id;
    await revoke(org, inv.id).expect(200);
    await org.owner.http.delete(`/api/orgs/${org.id}/members/${mid}`).expect(200);
    const back = (await invite(org, u.email, 'guest').expect(201)).body.invitation;
    expect((await accept(u, back.id).expect(200)).body.member).toMatchObject({ id: mid, role: 'guest' });
  });

  it('bad input is 400 with { error, code }: email, role (owner is not invitable), body, list parameters', async () => {
    const org = await newOrg(t);
    const bodies: unknown[] = [
      {},
      { email: 'not-an-email' },
      { email: 123 },
      { email: '' },
      { email: `${'a'.repeat(320)}@example.com` },
      { email: freshEmail(), role: 'god' },
      { email: freshEmail(), role: 123 },
      { email: freshEmail(), role: 'owner' },
    ];
    for (const body of bodies) {
      const r = await org.owner.http
        .post(`/api/orgs/${org.id}/members`)
        .send(body as object)
        .expect(400);
      expect(withoutDetails(r.body)).toEqual({ error: expect.any(String), code: 'validation_failed' });
    }
    const owner = await org.owner.http.post(`/api/orgs/${org.id}/members`).send({ email: freshEmail(), role: 'owner' }).expect(400);
    expect(owner.body.error).toMatch(/owner/);
    await org.owner.http.post(`/api/orgs/${org.id}/members`).set('content-type', 'application/json').send('[1]').expect(400);
    await org.owner.http.post(`/api/orgs/${org.id}/members`).set('content-type', 'application/json').send('{').expect(400);
    for (const q of ['status=bogus', 'status=pending&status=all', 'limit=abc', 'offset=-1'])
      await org.owner.http.get(`/api/orgs/${org.id}/invitations?${q}`).expect(400);
    await org.owner.http.get('/api/invitations?limit=abc').expect(400);
    expect(await orgList(org, '?status=all')).toEqual([]); // nothing was created
  });

  it('the database keeps the rules too: status values, one pending per organization and email, roles, tenant keys', async () => {
    const org = await newOrg(t);
    const other = await newOrg(t);
    const insert = (orgId: string, email: string, extra: { status?: string; role?: string; by?: string } = {}) =>
      t.db.query(
        `INSERT INTO invitations (org_id, id, email, role, status, invited_by_member_id, expires_at, closed_at)
         VALUES ($1, $2, $3, $4, $5, $6, now() + interval '7 days', CASE WHEN $5 = 'pending' THEN NULL ELSE now() END)`,
        [orgId, randomId(), email, extra.role ?? 'member', extra.status ?? 'pending', extra.by ?? org.ownerMemberId],
      );
    const email = freshEmail();
    await insert(org.id, email);
    await expect(insert(org.id, email.toUpperCase())).rejects.toThrow(/invitations_one_pending_uq/);
    await insert(org.id, email, { status: 'declined' }); // closed ones do not count
    await expect(insert(org.id, freshEmail(), { status: 'maybe' })).rejects.toThrow(/check constraint/);
    await expect(insert(org.id, freshEmail(), { role: 'owner' })).rejects.toThrow(/check constraint/);
    // the inviter must be a member of the same organization (checked at commit)
    await expect(insert(other.id, freshEmail())).rejects.toThrow(/invitations_invited_by_fk/);
  });

  it('OpenAPI documents the invitation routes and the new POST /members answer', async () => {
    const doc = (await t.http().get('/api/openapi.json').expect(200)).body;
    for (const p of ['/api/invitations', '/api/invitations/{invitationId}/accept', '/api/invitations/{invitationId}/decline', '/api/orgs/{id}/invitations']) {
      expect(doc.paths[p]).toBeDefined();
    }
    expect(doc.paths['/api/orgs/{id}/invitations/{invitationId}'].delete).toBeDefined();
    const post = doc.paths['/api/orgs/{id}/members'].post;
    expect(post.responses['201'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/InvitationEnvelope' });
    expect(Object.keys(doc.components.schemas.InvitationResponse.properties).sort()).toEqual(['email', 'expires_at', 'id', 'role', 'status']);
    for (const code of ['402', '409', '429']) expect(post.responses[code]).toBeDefined();
  });
});

describe('invitations: rate limit per organization (INVITATION_RATE_LIMIT_PER_HOUR)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ INVITATION_RATE_LIMIT_PER_HOUR: '3' });
  });
  afterAll(() => t.close());

  it('the fourth invitation of the hour is 429 RATE_LIMITED with Retry-After; other organizations are not affected', async () => {
    const org = await newOrg(t);
    for (let i = 0; i < 3; i++)
      await org.owner.http
        .post(`/api/orgs/${org.id}/members`)
        .send({ email: `${uniq('rl')}@example.com` })
        .expect(201);
    const r = await org.owner.http
      .post(`/api/orgs/${org.id}/members`)
      .send({ email: `${uniq('rl')}@example.com` })
      .expect(429);
    expect(r.body).toMatchObject({ code: 'RATE_LIMITED', limit: 3, retryAfterSeconds: expect.any(Number) });
    expect(Number(r.headers['retry-after'])).toBeGreaterThan(0);
    const other = await newOrg(t);
    await other.owner.http
      .post(`/api/orgs/${other.id}/members`)
      .send({ email: `${uniq('rl')}@example.com` })
      .expect(201);
    // non-admins are refused before they can spend the organization's budget
    const m = await newUser(t, 'm');
    const inv = (await other.owner.http.post(`/api/orgs/${other.id}/members`).send({ email: m.email }).expect(201)).body.invitation;
    await m.http.post(`/api/invitations/${inv.id}/accept`).expect(200);
    for (let i = 0; i < 3; i++)
      await m.http
        .post(`/api/orgs/${other.id}/members`)
        .send({ email: `${uniq('rl')}@example.com` })
        .expect(403);
    await other.owner.http
      .post(`/api/orgs/${other.id}/members`)
      .send({ email: `${uniq('rl')}@example.com` })
      .expect(201);
  });
});
