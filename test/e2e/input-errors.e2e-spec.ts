import { newOrg, newProject, type TestOrg, uniq } from '../support/factories';
import { startTestApp, type TestApp } from '../support/app';

/**
 * What a client that gets the request wrong is told (issue 13, "Input errors"): an unknown body
 * field is a 400 naming it and the closest known field (documented aliases stay accepted); a body
 * that is not JSON is a 415 saying what is expected; every problem of a request comes at once,
 * `error` joining the messages and `details` listing `{ field, message }`.
 */
describe('input errors', () => {
  let t: TestApp;
  let org: TestOrg;
  let project: { id: string };
  const issues = () => `/api/orgs/${org.id}/issues`;
  const issueCount = async () => (await t.db.query('SELECT count(*)::int AS n FROM issues WHERE org_id = $1', [org.id]))[0].n as number;

  beforeAll(async () => {
    t = await startTestApp();
    org = await newOrg(t);
    project = await newProject(t, org);
  });
  afterAll(() => t.close());

  describe('unknown body fields', () => {
    it('are a 400 naming the field and the closest known one; nothing is written', async () => {
      const before = await issueCount();
      const res = await org.owner.http
        .post(issues())
        .send({ title: uniq('x'), project: project.id })
        .expect(400);
      expect(res.body).toEqual({
        error: '`project` is not a field; did you mean `projectId`?',
        code: 'validation_failed',
        details: [{ field: 'project', message: '`project` is not a field; did you mean `projectId`?' }],
      });
      expect(await issueCount()).toBe(before);
    });

    it('each unknown field is named, with a suggestion when one is close and the fields otherwise', async () => {
      const res = await org.owner.http
        .post(issues())
        .send({ title: uniq('x'), projectID: project.id, descripton: 'd', zzqqxx: 1 })
        .expect(400);
      expect(res.body.details).toEqual([
        { field: 'projectID', message: '`projectID` is not a field; did you mean `projectId`?' },
        { field: 'descripton', message: '`descripton` is not a field; did you mean `description`?' },
        { field: 'zzqqxx', message: expect.stringMatching(/^`zzqqxx` is not a field \(fields: title, description, status, priority, /) },
      ]);
      expect(res.body.error).toBe(res.body.details.map((d: { message: string }) => d.message).join('; '));
    });

    it('a snake_case slip is pointed at the accepted name', async () => {
      const res = await org.owner.http
        .post(issues())
        .send({ title: uniq('x'), project_idd: project.id })
        .expect(400);
      expect(res.body.details).toEqual([{ field: 'project_idd', message: '`project_idd` is not a field; did you mean `project_id`?' }]);
    });

    it('documented aliases stay accepted (snake_case and camelCase)', async () => {
      const snake = await org.owner.http
        .post(issues())
        .send({ title: uniq('s'), project_id: project.id, due_date: '2030-01-02' })
        .expect(201);
      const camel = await org.owner.http
        .post(issues())
        .send({ title: uniq('c'), projectId: project.id, dueDate: '2030-01-02' })
        .expect(201);
      for (const res of [snake, camel]) {
        const [row] = await t.db.query('SELECT project_id, due_date::text AS due FROM issues WHERE id = $1', [res.body.issue.id]);
        expect(row).toEqual({ project_id: project.id, due: '2030-01-02' });
      }
    });

    it('inside nested items (bulk create) the path names the item', async () => {
      const before = await issueCount();
      const res = await org.owner.http
        .post(`${issues()}/bulk`)
        .send({
          issues: [
            { title: uniq('a'), project_id: project.id },
            { title: uniq('b'), projct: project.id },
          ],
        })
        .expect(400);
      expect(res.body.details).toEqual([{ field: 'issues[1].projct', message: '`issues[1].projct` is not a field; did you mean `projectId`?' }]);
      expect(await issueCount()).toBe(before);
    });

    it('on an update too (PATCH), and unknown query keys are still ignored', async () => {
      const created = await org.owner.http
        .post(issues())
        .send({ title: uniq('u') })
        .expect(201);
      const res = await org.owner.http.patch(`${issues()}/${created.body.issue.id}`).send({ titel: 'renamed' }).expect(400);
      expect(res.body.error).toBe('`titel` is not a field; did you mean `title`?');
      await org.owner.http.get(`${issues()}?cacheBuster=1`).expect(200);
    });

    it('a very long unknown name is shortened in the message and gets no suggestion', async () => {
      const name = `p${'x'.repeat(5000)}`;
      const res = await org.owner.http
        .post(issues())
        .send({ title: uniq('x'), [name]: 1 })
        .expect(400);
      expect(res.body.details).toHaveLength(1);
      expect(res.body.details[0].field).toBe(name);
      expect(res.body.details[0].message).toMatch(/^`px{63}…` is not a field \(fields: /);
    });
  });

  describe('content type', () => {
    it('a JSON route answers 415 for a text/plain body, saying what it expects, before validating fields', async () => {
      const before = await issueCount();
      const res = await org.owner.http.post(issues()).set('Content-Type', 'text/plain').send('{"title":"x"}').expect(415);
      expect(res.body).toEqual({
        error: 'Unsupported content type `text/plain`: send the request body as JSON with `Content-Type: application/json`',
        code: 'unsupported_media_type',
      });
      expect(await issueCount()).toBe(before);
    });

    it('a multipart body on a JSON route is 415 too (it used to be read as no body: "title is required")', async () => {
      const res = await org.owner.http.post(issues()).field('title', 'x').expect(415);
      expect(res.body.error).toBe('Unsupported content type `multipart/form-data`: send the request body as JSON with `Content-Type: application/json`');
    });

    it('a form body (curl -d) and a body without Content-Type are 415 with the same advice', async () => {
      const form = await org.owner.http.post(issues()).set('Content-Type', 'application/x-www-form-urlencoded').send('title=x').expect(415);
      expect(form.body).toEqual({
        error: 'Unsupported content type `application/x-www-form-urlencoded`: send the request body as JSON with `Content-Type: application/json`',
        code: 'unsupported_media_type',
      });
      const none = await org.owner.http.post(issues()).set('Content-Type', '').send('{"title":"x"}').expect(415);
      expect(none.body).toEqual({ error: expect.stringContaining('application/json'), code: 'unsupported_media_type' });
    });

    it('JSON with a charset and a body-less POST are accepted; the multipart upload route keeps multipart', async () => {
      await org.owner.http
        .post(issues())
        .set('Content-Type', 'application/json; charset=utf-8')
        .send(JSON.stringify({ title: uniq('cs') }))
        .expect(201);
      const issue = (
        await org.owner.http
          .post(issues())
          .send({ title: uniq('att') })
          .expect(201)
      ).body.issue;
      const upload = await org.owner.http
        .post(`${issues()}/${issue.id}/attachments`)
        .attach('file', Buffer.from('hello'), { filename: 'hello.txt', contentType: 'text/plain' })
        .expect(201);
      expect(upload.body).toBeDefined();
      // a body-less action (no @Body): any content type is irrelevant, nothing is read
      const text = await org.owner.http.post(`${issues()}/${issue.id}/attachments`).set('Content-Type', 'text/plain').send('x').expect(400);
      expect(text.body.error).toBe('Send the file as multipart/form-data in the field "file"');
    });
  });

  describe('every problem at once', () => {
    it('four invalid fields: one 400, `error` joins the four messages, `details` names each field', async () => {
      const res = await org.owner.http.post(issues()).send({ title: '', priority: 9, projectId: 'nope', dueDate: '2030-02-30' }).expect(400);
      expect(res.body.code).toBe('validation_failed');
      expect(res.body.details).toEqual([
        { field: 'title', message: 'title is required' },
        { field: 'priority', message: 'priority must be an integer from 0 to 3' },
        { field: 'projectId', message: 'projectId must be a UUID or null' },
        { field: 'dueDate', message: 'dueDate is not a real calendar date' },
      ]);
      expect(res.body.error).toBe(
        'title is required; priority must be an integer from 0 to 3; projectId must be a UUID or null; dueDate is not a real calendar date',
      );
    });

    it('class-validator DTOs list each problem with the field as sent', async () => {
      const res = await org.owner.http
        .post(`/api/orgs/${org.id}/projects/${project.id}/members`)
        .send({ member_id: 'nope', access_level: 'root', extra: true })
        .expect(400);
      expect(res.body.details).toEqual(
        expect.arrayContaining([
          { field: 'member_id', message: 'member_id must be a UUID' },
          { field: 'access_level', message: 'access_level must be one of view, edit, admin' },
          { field: 'extra', message: expect.stringMatching(/^`extra` is not a field/) },
        ]),
      );
      expect(res.body.details).toHaveLength(3);
      expect(res.body.error.split('; ')).toHaveLength(3);
    });

    it('a body that is not an object is one problem about the body as a whole', async () => {
      const res = await org.owner.http
        .post(issues())
        .send([{ title: 'x' }])
        .expect(400);
      expect(res.body).toEqual({
        error: 'Request body must be a JSON object',
        code: 'validation_failed',
        details: [{ field: null, message: 'Request body must be a JSON object' }],
      });
    });
  });
});
