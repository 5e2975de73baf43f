import { addMember, newOrg, newProject, newUser, randomId, uniq, type TestOrg, type TestUser } from '../support/factories';
import { startTestApp, type TestApp } from '../support/app';
import { withoutDetails } from '../support/errors';

async function join(t: TestApp, org: TestOrg, role: 'admin' | 'member' | 'guest'): Promise<{ user: TestUser; memberId: string }> {
  const user = await newUser(t, role);
  return { user, memberId: await addMember(t, org, user, role) };
}

/** A team row of the organization with the given members (written directly: teams have their own module). */
async function newTeam(t: TestApp, org: TestOrg, memberIds: string[] = []): Promise<string> {
  const id = randomId();
  const slug = uniq('team').toLowerCase();
  await t.db.query('INSERT INTO teams (org_id, id, name, slug) VALUES ($1, $2, $3, $4)', [org.id, id, `Team ${slug}`, slug]);
  for (const m of memberIds) await t.db.query('INSERT INTO team_members (org_id, team_id, member_id) VALUES ($1, $2, $3)', [org.id, id, m]);
  return id;
}

describe('projects: access entries (members) and teams', () => {
  let t: TestApp;
  let org: TestOrg;
  beforeAll(async () => {
    t = await startTestApp();
    org = await newOrg(t);
  });
  afterAll(() => t.close());

  const url = (projectId: string, rest = '') => `/api/orgs/${org.id}/projects/${projectId}${rest}`;

  it('POST defaults to edit; both id/level spellings in responses; GET lists entries; 409 for an existing entry', async () => {
    const p = await newProject(t, org);
    const member = await join(t, org, 'member');
    const res = await org.owner.http.post(url(p.id, '/members')).send({ memberId: member.memberId }).expect(201);
    expect(res.body.member).toMatchObject({
      member_id: member.memberId,
      memberId: member.memberId,
      access_level: 'edit',
      accessLevel: 'edit',
      display_name: member.user.name,
      type: 'human',
      role: 'member',
    });
    expect(new Date(res.body.member.created_at).toISOString()).toBe(res.body.member.created_at);
    const dup = await org.owner.http.post(url(p.id, '/members')).send({ member_id: member.memberId, access_level: 'view' }).expect(409);
    expect(dup.body.code).toBe('project_member_exists');
    const guest = await join(t, org, 'guest');
    const viaAlias = await org.owner.http.post(url(p.id, '/members')).send({ member_id: guest.memberId, access_level: 'view' }).expect(201);
    expect(viaAlias.body.member).toMatchObject({ member_id: guest.memberId, access_level: 'view', role: 'guest' });
    const list = await member.user.http.get(url(p.id, '/members')).expect(200);
    expect(list.body.members.map((m: any) => [m.member_id, m.accessLevel])).toEqual([
      [member.memberId, 'edit'],
      [guest.memberId, 'view'],
    ]);
  });

  it('POST/PATCH validation: invalid level 400, missing ids 400, unknown or other-org member 404', async () => {
    const p = await newProject(t, org);
    const member = await join(t, org, 'member');
    for (const body of [
      { memberId: member.memberId, accessLevel: 'owner' },
      { memberId: member.memberId, accessLevel: 'EDIT' },
      { memberId: member.memberId, access_level: 3 },
      { memberId: member.memberId, accessLevel: 'edit', access_level: 'view' },
      {},
      { memberId: 'nope' },
      { accessLevel: 'view' },
    ]) {
      const r = await org.owner.http.post(url(p.id, '/members')).send(body).expect(400);
      expect(withoutDetails(r.body)).toEqual({ error: expect.any(String), code: 'validation_failed' });
    }
    await org.owner.http.post(url(p.id, '/members')).send({ memberId: randomId() }).expect(404);
    const other = await newOrg(t);
    await org.owner.http.post(url(p.id, '/members')).send({ memberId: other.ownerMemberId }).expect(404);
    // a removed member cannot be given access
    const gone = await join(t, org, 'member');
    await t.db.query('UPDATE members SET removed_at = now() WHERE org_id = $1 AND id = $2', [org.id, gone.memberId]);
    await org.owner.http.post(url(p.id, '/members')).send({ memberId: gone.memberId }).expect(404);

    await org.owner.http.post(url(p.id, '/members')).send({ memberId: member.memberId }).expect(201);
    for (const body of [
      { memberId: member.memberId },
      { memberId: member.memberId, accessLevel: 'super' },
      { accessLevel: 'view' },
      { memberId: member.memberId, accessLevel: null },
    ]) {
      await org.owner.http.patch(url(p.id, '/members')).send(body).expect(400);
    }
    const patched = await org.owner.http.patch(url(p.id, '/members')).send({ memberId: member.memberId, accessLevel: 'view' }).expect(200);
    expect(patched.body.member).toMatchObject({ member_id: member.memberId, access_level: 'view', accessLevel: 'view' });
    const noEntry = await join(t, org, 'member');
    await org.owner.http.patch(url(p.id, '/members')).send({ memberId: noEntry.memberId, accessLevel: 'view' }).expect(404);
    await org.owner.http.delete(url(p.id, `/members?memberId=${noEntry.memberId}`)).expect(404);
    await org.owner.http.delete(url(p.id, '/members')).expect(400);
    await org.owner.http.delete(url(p.id, '/members?memberId=abc')).expect(400);
  });

  it('a member reads but cannot write the board (403) until given edit; admin entries manage access; removal applies on the next request', async () => {
    const p = await newProject(t, org);
    const member = await join(t, org, 'member');
    const other = await join(t, org, 'member');
    await member.user.http.get(url(p.id)).expect(200);
    await member.user.http.get(url(p.id, '/board-columns')).expect(200);
    await member.user.http.get(url(p.id, '/members')).expect(200);
    const col = { key: 'review', label: 'Review' };
    const denied = await member.user.http.post(url(p.id, '/board-columns')).send(col).expect(403);
    expect(denied.body.code).toBe('forbidden');
    await member.user.http.post(url(p.id, '/members')).send({ memberId: other.memberId }).expect(403);

    await org.owner.http.post(url(p.id, '/members')).send({ memberId: member.memberId, accessLevel: 'edit' }).expect(201);
    const me = await member.user.http.get(url(p.id)).expect(200);
    expect(me.body.project.access_level).toBe('edit');
    await member.user.http.post(url(p.id, '/board-columns')).send(col).expect(201);
    // edit is not enough to manage access or the project itself
    await member.user.http.post(url(p.id, '/members')).send({ memberId: other.memberId }).expect(403);
    await member.user.http.patch(url(p.id)).send({ name: 'x' }).expect(403);

    await org.owner.http.patch(url(p.id, '/members')).send({ memberId: member.memberId, accessLevel: 'admin' }).expect(200);
    await member.user.http.post(url(p.id, '/members')).send({ memberId: other.memberId, accessLevel: 'view' }).expect(201);
    await member.user.http.patch(url(p.id, '/members')).send({ memberId: other.memberId, accessLevel: 'edit' }).expect(200);
    await member.user.http.delete(url(p.id, `/members?memberId=${other.memberId}`)).expect(200);

    await org.owner.http.delete(url(p.id, `/members?member_id=${member.memberId}`)).expect(200);
    await member.user.http.post(url(p.id, '/board-columns')).send({ key: 'qa', label: 'QA' }).expect(403);
    const back = await member.user.http.get(url(p.id)).expect(200);
    expect(back.body.project.access_level).toBe('view');
  });

  it('a guest without an entry gets 404 on the project and every child route; with view it reads but cannot write; losing it hides again', async () => {
    const p = await newProject(t, org);
    const guest = await join(t, org, 'guest');
    const cols = await org.owner.http.get(url(p.id, '/board-columns')).expect(200);
    const views = await org.owner.http.get(url(p.id, '/board-views')).expect(200);
    const cviews = await org.owner.http.get(url(p.id, '/custom-views')).expect(200);
    const colId = cols.body.columns[0].id;
    const viewId = views.body.views[0].id;
    const cviewId = cviews.body.views[0].id;
    const g = guest.user.http;
    const hidden = async () => {
      await g.get(url(p.id)).expect(404);
      await g.patch(url(p.id)).send({ name: 'x' }).expect(404);
      await g.delete(url(p.id)).send({ confirmation: 'DELETE' }).expect(404);
      await g.get(url(p.id, '/members')).expect(404);
      await g.post(url(p.id, '/members')).send({ memberId: guest.memberId }).expect(404);
      await g.patch(url(p.id, '/members')).send({ memberId: guest.memberId, accessLevel: 'admin' }).expect(404);
      await g.delete(url(p.id, `/members?memberId=${guest.memberId}`)).expect(404);
      await g.get(url(p.id, '/teams')).expect(404);
      await g.post(url(p.id, '/teams')).send({ teamId: randomId() }).expect(404);
      await g.delete(url(p.id, `/teams?teamId=${randomId()}`)).expect(404);
      await g.get(url(p.id, '/board-columns')).expect(404);
      await g.post(url(p.id, '/board-columns')).send({ key: 'x', label: 'X' }).expect(404);
      await g
        .patch(url(p.id, `/board-columns/${colId}`))
        .send({ label: 'X' })
        .expect(404);
      await g.delete(url(p.id, `/board-columns/${colId}`)).expect(404);
      await g.put(url(p.id, '/board-columns/reorder')).send({ columns: [] }).expect(404);
      await g.get(url(p.id, '/board-views')).expect(404);
      await g
        .post(url(p.id, '/board-views'))
        .send({ name: 'x', columnIds: [colId] })
        .expect(404);
      await g
        .patch(url(p.id, `/board-views/${viewId}`))
        .send({ name: 'x' })
        .expect(404);
      await g.delete(url(p.id, `/board-views/${viewId}`)).expect(404);
      await g.get(url(p.id, '/custom-views')).expect(404);
      await g.post(url(p.id, '/custom-views')).send({ name: 'x' }).expect(404);
      await g
        .patch(url(p.id, `/custom-views/${cviewId}`))
        .send({ name: 'x' })
        .expect(404);
      await g.delete(url(p.id, `/custom-views/${cviewId}`)).expect(404);
    };
    await hidden();
    await org.owner.http.post(url(p.id, '/members')).send({ memberId: guest.memberId, accessLevel: 'view' }).expect(201);
    await g.get(url(p.id)).expect(200);
    await g.get(url(p.id, '/board-columns')).expect(200);
    await g.get(url(p.id, '/board-views')).expect(200);
    await g.get(url(p.id, '/custom-views')).expect(200);
    await g.get(url(p.id, '/members')).expect(200);
    await g.get(url(p.id, '/teams')).expect(200);
    await g.post(url(p.id, '/board-columns')).send({ key: 'x', label: 'X' }).expect(403);
    await g.post(url(p.id, '/custom-views')).send({ name: 'x' }).expect(403);
    await g.delete(url(p.id, `/board-views/${viewId}`)).expect(403);
    await org.owner.http.delete(url(p.id, `/members?memberId=${guest.memberId}`)).expect(200);
    await hidden();
  });

  it('another organization’s owner gets 404 for the project and children, and cannot use its ids from their own org', async () => {
    const p = await newProject(t, org);
    const cols = await org.owner.http.get(url(p.id, '/board-columns')).expect(200);
    const other = await newOrg(t);
    await other.owner.http.get(url(p.id)).expect(404);
    await other.owner.http.get(url(p.id, '/board-columns')).expect(404);
    await other.owner.http.get(url(p.id, '/members')).expect(404);
    const theirs = `/api/orgs/${other.id}/projects/${p.id}`;
    await other.owner.http.get(theirs).expect(404);
    await other.owner.http.get(`${theirs}/custom-views`).expect(404);
    await other.owner.http.patch(`${theirs}/board-columns/${cols.body.columns[0].id}`).send({ label: 'x' }).expect(404);
    // and a column id of another project (same org) is 404 in this project
    const p2 = await newProject(t, org);
    await org.owner.http
      .patch(url(p2.id, `/board-columns/${cols.body.columns[0].id}`))
      .send({ label: 'x' })
      .expect(404);
  });

  it('teams: assign (team members get edit), list, 409 duplicate, 404 unknown/other-org team, unassign', async () => {
    const p = await newProject(t, org);
    const member = await join(t, org, 'member');
    const teamId = await newTeam(t, org, [member.memberId]);
    await member.user.http.post(url(p.id, '/board-columns')).send({ key: 'team_col', label: 'T' }).expect(403);
    await member.user.http.post(url(p.id, '/teams')).send({ teamId }).expect(403);
    const res = await org.owner.http.post(url(p.id, '/teams')).send({ teamId }).expect(201);
    expect(res.body.team).toMatchObject({ id: teamId, team_id: teamId, teamId });
    expect(res.body.team.name).toMatch(/^Team /);
    await org.owner.http.post(url(p.id, '/teams')).send({ team_id: teamId }).expect(409);
    await member.user.http.post(url(p.id, '/board-columns')).send({ key: 'team_col', label: 'T' }).expect(201);
    const list = await member.user.http.get(url(p.id, '/teams')).expect(200);
    expect(list.body.teams.map((x: any) => x.id)).toEqual([teamId]);
    await org.owner.http.post(url(p.id, '/teams')).send({ teamId: randomId() }).expect(404);
    const other = await newOrg(t);
    const foreignTeam = await newTeam(t, other);
    await org.owner.http.post(url(p.id, '/teams')).send({ teamId: foreignTeam }).expect(404);
    for (const body of [{}, { teamId: 'x' }, { teamId: 5 }]) await org.owner.http.post(url(p.id, '/teams')).send(body).expect(400);
    await org.owner.http.delete(url(p.id, '/teams')).expect(400);
    await org.owner.http.delete(url(p.id, `/teams?teamId=${randomId()}`)).expect(404);
    await member.user.http.delete(url(p.id, `/teams?teamId=${teamId}`)).expect(403);
    await org.owner.http.delete(url(p.id, `/teams?teamId=${teamId}`)).expect(200);
    await member.user.http.post(url(p.id, '/board-columns')).send({ key: 'after_team', label: 'A' }).expect(403);
    expect((await member.user.http.get(url(p.id, '/teams')).expect(200)).body.teams).toEqual([]);
  });
});
