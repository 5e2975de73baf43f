import { startTestApp, type TestApp } from '../support/app';
import { addMember, newOrg, newProject, newUser } from '../support/factories';
import { eventually, grant } from '../support/issues';

/** Timeline entries never name an initiative or target the reader cannot see (guests). */
describe('activity: strategy names on the timeline follow strategy access', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t?.close());

  it('a guest who reads the issue but not the initiative sees the entry without its names; owners see them', async () => {
    const org = await newOrg(t);
    const guest = await newUser(t, 'guest');
    const guestId = await addMember(t, org, guest, 'guest');
    const p = await newProject(t, org);
    const h = await newProject(t, org);
    await grant(org, h.id, guestId, 'view');
    const base = `/api/orgs/${org.id}`;
    const ini = (await org.owner.http.post(`${base}/initiatives`).send({ title: 'Secret plan', project_id: p.id }).expect(201)).body.initiative;
    await org.owner.http
      .post(`${base}/initiatives/${ini.id}/projects`)
      .send({ project_id: h.id })
      .expect((r) => expect([200, 201]).toContain(r.status));
    const issue = (await org.owner.http.post(`${base}/issues`).send({ title: 'Visible work', projectId: h.id }).expect(201)).body.issue;
    await org.owner.http.post(`${base}/initiatives/${ini.id}/issues`).send({ issue_id: issue.id }).expect(201);
    const target = (await org.owner.http.post(`${base}/initiatives/${ini.id}/targets`).send({ title: 'Secret target' }).expect(201)).body.target;
    await org.owner.http.post(`${base}/initiatives/${ini.id}/targets/${target.id}/issues`).send({ issue_id: issue.id }).expect(201);

    await guest.http.get(`${base}/initiatives/${ini.id}`).expect(404);
    const linked = (r: { body: { data: Array<{ action: string }> } }) => r.body.data.filter((e) => e.action.startsWith('initiative'));
    expect(await eventually(async () => linked(await org.owner.http.get(`${base}/issues/${issue.id}/activity`)).length === 2)).toBe(true);

    const ownerView = JSON.stringify(linked(await org.owner.http.get(`${base}/issues/${issue.id}/activity`).expect(200)));
    expect(ownerView).toContain('Secret plan');
    expect(ownerView).toContain('Secret target');

    for (const path of [`${base}/issues/${issue.id}/activity`, `${base}/activity`]) {
      const res = await guest.http.get(path).expect(200);
      const entries = linked(res);
      expect(entries).toHaveLength(2);
      const text = JSON.stringify(entries);
      for (const hidden of ['Secret plan', 'Secret target', ini.id, target.id]) expect(text).not.toContain(hidden);
      for (const e of entries) expect(e).toMatchObject({ metadata: { restricted: true } });
    }
  });
});
