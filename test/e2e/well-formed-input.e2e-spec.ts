import { startTestApp, type TestApp } from '../support/app';
import { newOrg, newProject, type TestOrg } from '../support/factories';

/**
 * Text the service cannot keep (unpaired surrogates, NUL) is refused once for every request:
 * every string of the JSON body at any depth (values and property names), every query value and
 * every path value; 400 `validation_failed` naming the field, before authentication and handlers.
 */
describe('well-formed input text', () => {
  let t: TestApp;
  let org: TestOrg;
  let proj: { id: string; key: string };
  const api = () => `/api/orgs/${org.id}`;
  const SURROGATE = 'must be well-formed Unicode text (it contains an unpaired surrogate)';
  const NUL = 'must not contain NUL characters';

  beforeAll(async () => {
    t = await startTestApp();
    org = await newOrg(t);
    proj = await newProject(t, org);
  });
  afterAll(() => t.close());

  it('a lone surrogate in an issue title is a 400; nothing is stored or echoed', async () => {
    const title = `t-${proj.key}-\ud800`;
    const r = await org.owner.http.post(`${api()}/issues`).send({ title, projectId: proj.id }).expect(400);
    expect(r.body).toEqual({ error: `title ${SURROGATE}`, code: 'validation_failed' });
    const stored = await t.db.query(`SELECT 1 FROM issues WHERE org_id = $1 AND title LIKE $2`, [org.id, `t-${proj.key}-%`]);
    expect(stored).toHaveLength(0);
  });

  it('nested strings and property names are checked at any depth and named by their path', async () => {
    const rule = { name: 'r', trigger_event: 'issue.created', actions: [{ type: 'close_issue' }] };
    const cases: Array<[unknown, string]> = [
      [{ ...rule, conditions: [{ field: 'title', operator: 'eq', value: 'a\udc00' }] }, `conditions[0].value ${SURROGATE}`],
      [{ ...rule, actions: [{ type: 'post_comment', value: 'a\u0000b' }] }, `actions[0].value ${NUL}`],
      [{ ...rule, conditions: [{ field: 'title', operator: 'eq', value: 'x', 'k\u0000': 1 }] }, `A property name in conditions[0] ${NUL}`],
      [{ ...rule, '\ud800': 1 }, `A property name in body ${SURROGATE}`],
    ];
    for (const [body, error] of cases) {
      const r = await org.owner.http.post(`${api()}/automation-rules`).send(body as object);
      expect([r.status, r.body]).toEqual([400, { error, code: 'validation_failed' }]);
    }
    expect(await t.db.query('SELECT 1 FROM automation_rules WHERE org_id = $1', [org.id])).toHaveLength(0);
  });

  it('query values (declared or not) and path values with NUL are a 400 naming the parameter', async () => {
    const q = await org.owner.http.get(`${api()}/issues?q=a%00b`).expect(400);
    expect(q.body).toEqual({ error: `q ${NUL}`, code: 'validation_failed' });
    const undeclared = await org.owner.http.get(`${api()}/labels?zz=%00`).expect(400);
    expect(undeclared.body).toEqual({ error: `zz ${NUL}`, code: 'validation_failed' });
    const repeated = await org.owner.http.get(`${api()}/issues?status=todo&status=%00`).expect(400);
    expect(repeated.body).toEqual({ error: `status[1] ${NUL}`, code: 'validation_failed' });
    const path = await org.owner.http.get(`${api()}/issues/${proj.key}-1%00`).expect(400);
    expect(path.body).toEqual({ error: `issueId ${NUL}`, code: 'validation_failed' });
    // undecodable percent sequences never become surrogates: they stay literal text
    await org.owner.http.get(`${api()}/issues?q=%ED%A0%80`).expect(200);
  });

  it('the check comes before authentication, like malformed JSON: anonymous callers get the same 400', async () => {
    const r = await t.http().get(`${api()}/labels?q=%00`).expect(400);
    expect(r.body).toEqual({ error: `q ${NUL}`, code: 'validation_failed' });
    await t.http().post('/api/auth/login').send({ email: 'a\ud800@example.com', password: 'x' }).expect(400);
    await t.http().get(`${api()}/labels`).expect(401);
  });

  it('well-formed text outside the Basic Multilingual Plane and other control characters pass this check', async () => {
    const r = await org.owner.http.post(`${api()}/issues`).send({ title: 'emoji 😀 𝄞', description: 'tab\there', projectId: proj.id }).expect(201);
    expect(r.body.issue.title).toBe('emoji 😀 𝄞');
  });
});
