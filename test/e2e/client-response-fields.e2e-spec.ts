import { startTestApp, type TestApp } from '../support/app';
import { addMember, newOrg, newProject, newUser, type TestOrg, type TestUser, uniq } from '../support/factories';
import { grant } from '../support/issues';

/**
 * Response fields the product's own clients read: the comment create `outcome.persistence`
 * (POST comments and PATCH issue `comment_body`), the parent `body` in `reply_to_comment`, the
 * `projectId` of a dependency's `releaseColumn`, and the board columns' `recommendation_role`
 * (writable, validated) and `release_reference_count`; each also in the OpenAPI document.
 */
describe('client response fields', () => {
  let t: TestApp;
  let org: TestOrg;
  let viewer: TestUser;
  let viewerId: string;
  let P: { id: string; key: string };
  const api = (p: string) => `/api/orgs/${org.id}${p}`;
  const mk = async (projectId: string | null = P.id) =>
    (
      await org.owner.http
        .post(api('/issues'))
        .send({ title: uniq('i'), projectId })
        .expect(201)
    ).body.issue;
  const columnsOf = async (projectId: string) =>
    (await org.owner.http.get(api(`/projects/${projectId}/board-columns`)).expect(200)).body.columns as Array<Record<string, any>>;

  beforeAll(async () => {
    t = await startTestApp();
    org = await newOrg(t);
    viewer = await newUser(t, 'viewer');
    viewerId = await addMember(t, org, viewer, 'guest');
    P = await newProject(t, org);
    await grant(org, P.id, viewerId, 'view');
  });
  afterAll(() => t.close());

  describe('comment create outcome', () => {
    it('POST comments: outcome.persistence { status: persisted, comment_id } names the committed comment', async () => {
      const i = await mk();
      const res = await org.owner.http
        .post(api(`/issues/${i.id}/comments`))
        .send({ body: 'hello' })
        .expect(201);
      expect(res.body.outcome.persistence).toEqual({ status: 'persisted', comment_id: res.body.comment.id });
      expect(res.body.outcome.mentions).toEqual(res.body.mentions);
      const rows = await t.db.query('SELECT issue_id FROM comments WHERE org_id = $1 AND id = $2', [org.id, res.body.comment.id]);
      expect(rows).toEqual([{ issue_id: i.id }]);
    });

    it('PATCH issue with comment_body returns the same outcome; without it there is no outcome', async () => {
      const i = await mk();
      const res = await org.owner.http
        .patch(api(`/issues/${i.id}`))
        .send({ status: 'todo', comment_body: 'progress note' })
        .expect(200);
      expect(res.body.outcome).toEqual({ mentions: res.body.mentions, persistence: { status: 'persisted', comment_id: res.body.comment.id } });
      const rows = await t.db.query('SELECT issue_id FROM comments WHERE org_id = $1 AND id = $2', [org.id, res.body.comment.id]);
      expect(rows).toEqual([{ issue_id: i.id }]);
      const plain = await org.owner.http
        .patch(api(`/issues/${i.id}`))
        .send({ title: 'no comment' })
        .expect(200);
      expect(plain.body).not.toHaveProperty('outcome');
    });
  });

  describe('reply_to_comment.body', () => {
    it('list and single read carry the parent body while it is live, null once it is deleted', async () => {
      const i = await mk(); // in P, which the guest viewer reads
      const base = api(`/issues/${i.id}/comments`);
      const parent = (await org.owner.http.post(base).send({ body: '**parent** text' }).expect(201)).body.comment;
      const reply = (await org.owner.http.post(base).send({ body: 'reply', reply_to_comment_id: parent.id }).expect(201)).body.comment;
      expect(reply.reply_to_comment).toMatchObject({ id: parent.id, body: parent.body, deleted: false });
      expect(parent.body).toContain('<strong>parent</strong>');
      const listed = (await viewer.http.get(base).expect(200)).body.comments;
      expect(listed.find((c: { id: string }) => c.id === reply.id).reply_to_comment.body).toBe(parent.body);
      expect(listed.find((c: { id: string }) => c.id === parent.id).reply_to_comment).toBeNull();
      expect((await viewer.http.get(`${base}/${reply.id}`).expect(200)).body.comment.reply_to_comment).toMatchObject({ id: parent.id, body: parent.body });
      // the parent's edit shows in the reply's context
      await org.owner.http.patch(`${base}/${parent.id}`).send({ body: 'edited parent' }).expect(200);
      expect((await viewer.http.get(`${base}/${reply.id}`).expect(200)).body.comment.reply_to_comment.body).toContain('edited parent');
      await org.owner.http.delete(`${base}/${parent.id}`).expect(200);
      const after = (await viewer.http.get(`${base}/${reply.id}`).expect(200)).body.comment.reply_to_comment;
      expect(after).toMatchObject({ id: parent.id, body: null, deleted: true });
      expect(JSON.stringify((await viewer.http.get(base).expect(200)).body)).not.toContain('edited parent');
    });
  });

  describe('dependency releaseColumn.projectId', () => {
    it('POST, PATCH and both lists carry the release column’s project', async () => {
      const blocker = await mk();
      const blocked = await mk(null);
      const done = (await columnsOf(P.id)).find((c) => c.key === 'done')!;
      const todo = (await columnsOf(P.id)).find((c) => c.key === 'todo')!;
      const d = (
        await org.owner.http
          .post(api(`/issues/${blocked.id}/dependencies`))
          .send({ blockedByIssueId: blocker.id })
          .expect(201)
      ).body.dependency;
      expect(d.releaseColumn).toEqual({ id: done.id, key: 'done', label: done.label, position: done.position, projectId: P.id });
      const patched = (
        await org.owner.http
          .patch(api(`/issues/${blocked.id}/dependencies/${d.id}`))
          .send({ release_column_id: todo.id })
          .expect(200)
      ).body;
      expect(patched.dependency.releaseColumn).toMatchObject({ id: todo.id, projectId: P.id });
      const fromBlocked = (await org.owner.http.get(api(`/issues/${blocked.id}/dependencies`)).expect(200)).body;
      expect(fromBlocked.blockedBy[0].releaseColumn).toMatchObject({ id: todo.id, projectId: P.id });
      const fromBlocker = (await viewer.http.get(api(`/issues/${blocker.id}/dependencies`)).expect(200)).body;
      expect(fromBlocker.blocking[0]).toMatchObject({ issue: null, releaseColumn: { id: todo.id, projectId: P.id } }); // a projectless target is unreadable to a guest
    });
  });

  describe('board columns', () => {
    it('release_reference_count counts the dependencies released at each column and follows changes', async () => {
      const p = await newProject(t, org);
      const count = async () => Object.fromEntries((await columnsOf(p.id)).map((c) => [c.key, c.release_reference_count]));
      expect(await count()).toEqual({ backlog: 0, todo: 0, in_progress: 0, done: 0 });
      const b1 = await mk(p.id);
      const b2 = await mk(p.id);
      const target = await mk(p.id);
      const d1 = (
        await org.owner.http
          .post(api(`/issues/${target.id}/dependencies`))
          .send({ blockedByIssueId: b1.id })
          .expect(201)
      ).body.dependency;
      await org.owner.http
        .post(api(`/issues/${target.id}/dependencies`))
        .send({ blockedByIssueId: b2.id })
        .expect(201);
      expect(await count()).toEqual({ backlog: 0, todo: 0, in_progress: 0, done: 2 });
      const inProgress = (await columnsOf(p.id)).find((c) => c.key === 'in_progress')!;
      await org.owner.http
        .patch(api(`/issues/${target.id}/dependencies/${d1.id}`))
        .send({ releaseColumnId: inProgress.id })
        .expect(200);
      expect(await count()).toEqual({ backlog: 0, todo: 0, in_progress: 1, done: 1 });
      // the single-column responses carry it too
      const patched = (
        await org.owner.http
          .patch(api(`/projects/${p.id}/board-columns/${inProgress.id}`))
          .send({ label: 'Doing' })
          .expect(200)
      ).body.column;
      expect(patched).toMatchObject({ release_reference_count: 1, issue_count: 0 });
      const created = (
        await org.owner.http
          .post(api(`/projects/${p.id}/board-columns`))
          .send({ key: 'review', label: 'Review' })
          .expect(201)
      ).body.column;
      expect(created).toMatchObject({ release_reference_count: 0, recommendation_role: null });
      await org.owner.http.delete(api(`/issues/${target.id}/dependencies/${d1.id}`)).expect(200);
      expect((await count()).in_progress).toBe(0);
      expect((await viewer.http.get(api(`/projects/${P.id}/board-columns`)).expect(200)).body.columns[0]).toHaveProperty('release_reference_count');
    });

    it('recommendation_role: null by default; set on create and update (either spelling), cleared with null; bad values 400', async () => {
      const p = await newProject(t, org);
      const base = api(`/projects/${p.id}/board-columns`);
      expect((await columnsOf(p.id)).map((c) => c.recommendation_role)).toEqual([null, null, null, null]);
      const a = (await org.owner.http.post(base).send({ key: 'ready', label: 'Ready', recommendationRole: 'candidate' }).expect(201)).body.column;
      expect(a.recommendation_role).toBe('candidate');
      const b = (await org.owner.http.post(base).send({ key: 'doing', label: 'Doing', recommendation_role: 'active' }).expect(201)).body.column;
      expect(b.recommendation_role).toBe('active');
      expect((await org.owner.http.patch(`${base}/${a.id}`).send({ recommendation_role: 'excluded' }).expect(200)).body.column.recommendation_role).toBe(
        'excluded',
      );
      expect(
        (await org.owner.http.patch(`${base}/${a.id}`).send({ recommendationRole: 'excluded', recommendation_role: 'excluded' }).expect(200)).body.column,
      ).toMatchObject({ recommendation_role: 'excluded', label: 'Ready' });
      expect((await org.owner.http.patch(`${base}/${a.id}`).send({ label: 'Still ready' }).expect(200)).body.column.recommendation_role).toBe('excluded');
      expect((await org.owner.http.patch(`${base}/${a.id}`).send({ recommendationRole: null }).expect(200)).body.column.recommendation_role).toBeNull();
      const listed = await columnsOf(p.id);
      expect(listed.find((c) => c.id === b.id)!.recommendation_role).toBe('active');
      expect(listed.find((c) => c.id === a.id)!.recommendation_role).toBeNull();
      for (const body of [
        { recommendationRole: 'primary' },
        { recommendationRole: 'Active' },
        { recommendationRole: 3 },
        { recommendationRole: ['active'] },
        { recommendationRole: 'active', recommendation_role: 'candidate' },
      ]) {
        const res = await org.owner.http.patch(`${base}/${b.id}`).send(body);
        if (res.status !== 400) throw new Error(`${JSON.stringify(body)} -> ${res.status} ${res.text}`);
        expect(res.body.error).toMatch(/recommendation/i);
      }
      await org.owner.http.post(base).send({ key: 'bad', label: 'Bad', recommendation_role: 'sometimes' }).expect(400);
      await viewer.http.patch(`${base}/${b.id}`).send({ recommendationRole: 'candidate' }).expect(404); // the viewer cannot read this project
      await grant(org, p.id, viewerId, 'view');
      await viewer.http.patch(`${base}/${b.id}`).send({ recommendationRole: 'candidate' }).expect(403);
      expect((await columnsOf(p.id)).find((c) => c.id === b.id)!.recommendation_role).toBe('active');
      // the database refuses other values too
      await expect(t.db.query(`UPDATE board_columns SET recommendation_role = 'primary' WHERE org_id = $1 AND id = $2`, [org.id, b.id])).rejects.toThrow(
        /recommendation_role/,
      );
    });
  });

  it('the OpenAPI document declares the new fields', async () => {
    const doc = (await t.http().get('/api/openapi.json').expect(200)).body;
    const props = (name: string) => Object.keys(doc.components.schemas[name]?.properties ?? {});
    expect(props('CommentPersistenceResponse')).toEqual(expect.arrayContaining(['status', 'comment_id']));
    expect(props('IssueUpdateOutcomeResponse')).toEqual(expect.arrayContaining(['mentions', 'persistence']));
    expect(props('ReplyToCommentResponse')).toContain('body');
    expect(props('ReleaseColumnProjection')).toContain('projectId');
    expect(props('BoardColumnResponse')).toEqual(expect.arrayContaining(['recommendation_role', 'release_reference_count']));
    expect(props('CreateBoardColumnDto')).toContain('recommendationRole');
    expect(props('UpdateBoardColumnDto')).toContain('recommendationRole');
    const patchIssue = doc.paths['/api/orgs/{id}/issues/{issueId}'].patch;
    expect(patchIssue.parameters.find((p: any) => p.name === 'issueId').description).toMatch(/#12/);
    expect(doc.paths['/api/orgs/{id}/issues/{issueId}/comments'].post.responses['409']).toBeDefined();
  });
});
