import { newOrg, newProject, type TestOrg, uniq } from '../support/factories';
import { startTestApp, type TestApp } from '../support/app';

/**
 * Accepted aliases are mapped to the canonical DTO property by the global validation pipe, before
 * validation: handlers see one name, messages name the field as sent, an alias and its canonical
 * name with different values are one 400, and the OpenAPI document lists every accepted name.
 */
describe('request aliases (validation pipe)', () => {
  let t: TestApp;
  let org: TestOrg;
  let project: { id: string };
  let other: { id: string };
  const issues = () => `/api/orgs/${org.id}/issues`;
  const members = () => `/api/orgs/${org.id}/projects/${project.id}/members`;

  beforeAll(async () => {
    t = await startTestApp();
    org = await newOrg(t);
    project = await newProject(t, org);
    other = await newProject(t, org);
  });
  afterAll(() => t.close());

  const projectOf = async (issueId: string) => (await t.db.query('SELECT project_id FROM issues WHERE id = $1', [issueId]))[0].project_id;

  it('maps the alias to the canonical property (snake_case and camelCase both work)', async () => {
    const snake = await org.owner.http
      .post(issues())
      .send({ title: uniq('A'), project_id: project.id })
      .expect(201);
    expect(await projectOf(snake.body.issue.id)).toBe(project.id);
    const camel = await org.owner.http
      .post(issues())
      .send({ title: uniq('B'), projectId: project.id })
      .expect(201);
    expect(await projectOf(camel.body.issue.id)).toBe(project.id);
  });

  it('an alias and its canonical name: same value accepted, different values one 400 naming both', async () => {
    await org.owner.http
      .post(issues())
      .send({ title: uniq('C'), projectId: project.id, project_id: project.id })
      .expect(201);
    const res = await org.owner.http
      .post(issues())
      .send({ title: uniq('D'), projectId: project.id, project_id: other.id })
      .expect(400);
    expect(res.body.error).toBe('projectId and project_id disagree; send one of them');
    const before = await t.db.query('SELECT count(*)::int AS n FROM issues WHERE org_id = $1', [org.id]);
    expect(before[0].n).toBe(3);
  });

  it('class-validator messages name the field as the client sent it, every problem at once', async () => {
    const snake = await org.owner.http.post(members()).send({ member_id: 'nope', access_level: 'root' }).expect(400);
    expect(snake.body.error).toContain('member_id must be a UUID');
    expect(snake.body.error).toContain('access_level must be one of view, edit, admin');
    expect(snake.body.error).not.toMatch(/memberId|accessLevel/);
    const camel = await org.owner.http.post(members()).send({ memberId: 'nope' }).expect(400);
    expect(camel.body.error).toBe('memberId must be a UUID');
  });

  it('conflicts and validation errors come together in one message', async () => {
    const res = await org.owner.http.post(members()).send({ memberId: 'nope', member_id: 'other', accessLevel: 'root' }).expect(400);
    expect(res.body.error).toContain('memberId and member_id disagree; send one of them');
    expect(res.body.error).toContain('accessLevel must be one of view, edit, admin');
  });

  it('unknown fields are not taken for aliases: they are a 400 pointing at the accepted name', async () => {
    const res = await org.owner.http
      .post(issues())
      .send({ title: uniq('E'), projectID: other.id, project: other.id })
      .expect(400);
    expect(res.body.error).toBe('`projectID` is not a field; did you mean `projectId`?; `project` is not a field; did you mean `projectId`?');
  });

  it('nested DTOs: bulk items map their aliases and name conflicts by path', async () => {
    const ok = await org.owner.http
      .post(`${issues()}/bulk`)
      .send({ issues: [{ title: uniq('F'), project_id: project.id }] })
      .expect(201);
    expect(await projectOf(ok.body.issues[0].issue?.id ?? ok.body.issues[0].id)).toBe(project.id);
    const res = await org.owner.http
      .post(`${issues()}/bulk`)
      .send({ issues: [{ title: uniq('G'), projectId: project.id, project_id: other.id }] })
      .expect(400);
    expect(res.body.error).toBe('issues[0].projectId and issues[0].project_id disagree; send one of them');
  });

  it('the OpenAPI document keeps every accepted name: canonical properties say "Also accepted as"', async () => {
    const doc = (await t.http().get('/api/openapi.json').expect(200)).body;
    const issue = doc.components.schemas.CreateIssueDto.properties;
    expect(issue.project_id).toBeUndefined();
    expect(issue.projectId.description).toMatch(/Also accepted as `project_id`\.$/);
    expect(issue.projectId['x-aliases']).toEqual(['project_id']);
    const milestone = doc.components.schemas.UpdateMilestoneDto.properties;
    expect(milestone.target_date['x-aliases']).toEqual(['targetDate', 'due_date', 'dueDate']);
    const mapping = doc.components.schemas.DependencyReleaseMappingDto.properties;
    expect(mapping.releaseColumnId.description).toContain('Also accepted as `release_column_id`');
  });
});
