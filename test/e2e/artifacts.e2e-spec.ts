import { createHash, randomUUID } from 'node:crypto';
import { addMember, newUser, type TestOrg, type TestUser, uniq } from '../support/factories';
import { startTestApp, type TestApp } from '../support/app';
import { activityRows, insertIssue, workTrackingWorld } from '../support/issues';
import { insertWebhookRow } from '../support/webhooks';

/**
 * Artifacts: versioned documents linked to issues and projects. Access follows the link targets
 * (any readable: read; edit on all: write), revisions are immutable and numbered without gaps or
 * repeats under concurrency, content is sanitized and bounded, prd/implementation_plan have one
 * slot per issue, linked issues and projects cannot be deleted, events reach the issue timeline
 * and webhooks.
 */
describe('artifacts', () => {
  let t: TestApp;
  let org: TestOrg;
  let other: TestOrg;
  let member: TestUser;
  let editor: TestUser;
  let guest: TestUser;
  let proj: { id: string; key: string };
  let hidden: { id: string; key: string };
  const base = () => `/api/orgs/${org.id}/artifacts`;
  const art = (id: string, rest = '') => `${base()}/${id}${rest}`;
  const sha = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');

  const create = async (body: Record<string, unknown> = {}, who: TestUser = org.owner, query = '') =>
    (
      await who.http
        .post(`${base()}${query}`)
        .send({ type: 'decision', title: uniq('Decision'), content: '<p>Body</p>', content_format: 'html', ...body })
        .expect(201)
    ).body as { artifact: any; revision: any };
  const linkedTo = (type: 'issue' | 'project', id: string) => ({ links: [{ target_type: type, target_id: id }] });
  const issueIn = (projectId: string | null) => insertIssue(t, org.id, projectId);

  beforeAll(async () => {
    t = await startTestApp();
    ({ org, other, member, editor, guest, proj, hidden } = await workTrackingWorld(t));
  });
  afterAll(() => t.close());

  describe('create and read', () => {
    it('creates every type with revision 1 and its links in one request (201 { artifact, revision })', async () => {
      const issue = await issueIn(proj.id);
      for (const type of ['prd', 'implementation_plan', 'test_plan', 'decision', 'research', 'release_checklist']) {
        const title = uniq(type);
        const { artifact, revision } = await create({
          type,
          title,
          content: '<p>Hello <strong>world</strong></p>',
          links: [
            { target_type: 'issue', target_id: issue.id },
            { targetType: 'project', targetId: proj.id },
          ],
        });
        expect(artifact).toMatchObject({
          id: expect.any(String),
          org_id: org.id,
          type,
          title,
          current_revision_id: revision.id,
          revision_number: 1,
          created_by: org.ownerMemberId,
        });
        expect(artifact.links.map((l: any) => [l.target_type, l.target_id, l.artifact_type]).sort()).toEqual(
          [
            ['issue', issue.id, type],
            ['project', proj.id, type],
          ].sort(),
        );
        expect(revision).toMatchObject({
          artifact_id: artifact.id,
          revision_number: 1,
          title_snapshot: title,
          content: '<p>Hello <strong>world</strong></p>',
          content_format: 'html',
          content_digest: sha('<p>Hello <strong>world</strong></p>'),
          created_by: org.ownerMemberId,
        });
        expect(revision).not.toHaveProperty('source_reference');
      }
    });

    it('renders Markdown and sanitizes HTML with the comment rules (no script, handlers or javascript: URLs)', async () => {
      const md = await create({ content: '# Plan\n\n- one\n- **two**', content_format: 'markdown' });
      expect(md.revision.content).toContain('<h1>Plan</h1>');
      expect(md.revision.content).toContain('<strong>two</strong>');
      expect(md.revision.content_format).toBe('markdown');
      const xss = await create({
        content:
          '<p>safe</p><script>alert(1)</script><img src=x onerror="alert(2)"><a href="javascript:alert(3)">l</a><div onclick="e()">c</div><iframe src="https://e.x"></iframe>',
      });
      const stored = (await org.owner.http.get(art(xss.artifact.id, `/revisions/${xss.revision.id}`)).expect(200)).body.revision.content;
      expect(stored).toContain('safe');
      expect(stored).not.toMatch(/<script|<iframe|onerror|onclick|javascript:/i);
      expect(stored).toBe(xss.revision.content);
      // without a format, HTML-looking content is html, the rest markdown
      expect((await create({ content: '<p>x</p>', content_format: undefined })).revision.content_format).toBe('html');
      expect((await create({ content: '*x*', content_format: undefined })).revision.content_format).toBe('markdown');
    });

    it('refuses bad input with a 4xx in the error shape, never a 5xx', async () => {
      const post = (body: Record<string, unknown>, query = '') =>
        org.owner.http.post(`${base()}${query}`).send({ type: 'decision', title: uniq('t'), content: '<p>x</p>', ...body });
      for (const type of ['memo', 'PRD', '', 7, null]) expect((await post({ type }).expect(400)).body).toMatchObject({ code: 'validation_failed' });
      await post({ title: '€'.repeat(67) }).expect(400); // 201 bytes
      expect((await post({ title: 'é'.repeat(100) }).expect(201)).body.artifact.title).toBe('é'.repeat(100)); // 200 bytes
      await post({ title: '   ' }).expect(400);
      await post({ title: 5 }).expect(400);
      await post({ content: undefined }).expect(400);
      await post({ content: { html: 'x' } }).expect(400);
      const big = await post({ content: `<p>${'x'.repeat(256 * 1024)}</p>` }).expect(413);
      expect(big.body).toMatchObject({ code: 'payload_too_large', error: expect.any(String) });
      await post({ content: 'ü'.repeat(140 * 1024), content_format: 'markdown' }).expect(413); // 140 Ki characters, 280 KiB
      await post({ content_format: 'docx' }).expect(400);
      await post({ links: 'x' }).expect(400);
      await post({ links: [{ target_type: 'milestone', target_id: proj.id }] }).expect(400);
      await post({ links: [{ target_type: 'issue' }] }).expect(400);
      await post({ links: [linkedTo('project', proj.id).links[0], linkedTo('project', proj.id).links[0]] }).expect(400);
      await post({ source_external_reference_link_id: 'nope' }).expect(400);
      for (const q of ['?projection=x', '?projection=source_provenance_v1&projection=source_provenance_v1', '?projection=source_provenance_v1,x'])
        await post({}, q).expect(400);
      await t.http().post(base()).send({ type: 'decision', title: 't', content: 'x' }).expect(401);
      await t.http().get(base()).expect(401);
    });

    it('link targets of another organization or unreadable ones are 404; view-only targets are 403', async () => {
      const foreignProject = (
        await other.owner.http
          .post(`/api/orgs/${other.id}/projects`)
          .send({ name: uniq('P'), key: 'FOR' })
          .expect(201)
      ).body.project;
      const foreignIssue = await insertIssue(t, other.id, foreignProject.id);
      await org.owner.http
        .post(base())
        .send({ type: 'decision', title: 'x', content: 'x', ...linkedTo('issue', foreignIssue.id) })
        .expect(404);
      await org.owner.http
        .post(base())
        .send({ type: 'decision', title: 'x', content: 'x', ...linkedTo('project', foreignProject.id) })
        .expect(404);
      await org.owner.http
        .post(base())
        .send({ type: 'decision', title: 'x', content: 'x', ...linkedTo('project', 'not-a-uuid') })
        .expect(404);
      const hiddenIssue = await issueIn(hidden.id);
      await guest.http
        .post(base())
        .send({ type: 'decision', title: 'x', content: 'x', ...linkedTo('issue', hiddenIssue.id) })
        .expect(404);
      await guest.http
        .post(base())
        .send({ type: 'decision', title: 'x', content: 'x', ...linkedTo('project', hidden.id) })
        .expect(404);
      await guest.http
        .post(base())
        .send({ type: 'decision', title: 'x', content: 'x', ...linkedTo('project', proj.id) })
        .expect(403);
      await member.http
        .post(base())
        .send({ type: 'decision', title: 'x', content: 'x', ...linkedTo('project', proj.id) })
        .expect(403);
      // any issue reference form
      const issue = await issueIn(proj.id);
      const r = await create(linkedTo('issue', `${proj.key}-${issue.number}`), editor);
      expect(r.artifact.links[0]).toMatchObject({ target_type: 'issue', target_id: issue.id });
      await editor.http
        .post(base())
        .send({ type: 'decision', title: 'x', content: 'x', ...linkedTo('issue', 'not a reference') })
        .expect(400);
    });

    it('lists readable artifacts without content, filters by target, pages with hasMore', async () => {
      const issue = await issueIn(proj.id);
      const a = await create(linkedTo('issue', issue.id));
      const b = await create(linkedTo('issue', issue.id));
      const l = (await org.owner.http.get(`${base()}?target_type=issue&target_id=${issue.id}`).expect(200)).body;
      expect(l).toMatchObject({ limit: 50, offset: 0, hasMore: false });
      expect(l.artifacts.map((x: any) => x.id)).toEqual([b.artifact.id, a.artifact.id]);
      for (const x of l.artifacts) expect(x).not.toHaveProperty('content');
      const p1 = (await org.owner.http.get(`${base()}?target_type=issue&target_id=${issue.id}&limit=1`).expect(200)).body;
      expect(p1).toMatchObject({ hasMore: true, limit: 1 });
      const p2 = (await org.owner.http.get(`${base()}?target_type=issue&target_id=${issue.id}&limit=1&offset=1`).expect(200)).body;
      expect(p2.hasMore).toBe(false);
      expect([...p1.artifacts, ...p2.artifacts].map((x: any) => x.id)).toEqual([b.artifact.id, a.artifact.id]);
      await org.owner.http.get(`${base()}?limit=0`).expect(400);
      await org.owner.http.get(`${base()}?offset=10001`).expect(400);
      await org.owner.http.get(`${base()}?target_type=issue`).expect(400);
      await guest.http.get(`${base()}?target_type=project&target_id=${hidden.id}`).expect(404);
      await org.owner.http.get(`${base()}?target_type=project&target_id=${randomUUID()}`).expect(404);
    });
  });

  describe('access', () => {
    it('guests read artifacts of their projects, never others (404 concealed), and cannot write them (403)', async () => {
      const visible = await create(linkedTo('issue', (await issueIn(proj.id)).id));
      const concealed = await create({ title: uniq('secret'), ...linkedTo('issue', (await issueIn(hidden.id)).id) });
      await guest.http.get(art(visible.artifact.id)).expect(200);
      await guest.http.get(art(visible.artifact.id, '/revisions')).expect(200);
      await guest.http.get(art(visible.artifact.id, `/revisions/${visible.revision.id}`)).expect(200);
      await guest.http.post(art(visible.artifact.id, '/revisions')).send({ content: '<p>guest</p>', expected_revision_id: visible.revision.id }).expect(403);
      for (const path of ['', '/revisions', `/revisions/${concealed.revision.id}`]) await guest.http.get(art(concealed.artifact.id, path)).expect(404);
      await guest.http.post(art(concealed.artifact.id, '/revisions')).send({ content: 'x', expected_revision_number: 1 }).expect(404);
      await guest.http.post(art(concealed.artifact.id, '/links')).send({ target_type: 'project', target_id: proj.id }).expect(404);
      await guest.http.delete(art(concealed.artifact.id, `/links/${concealed.artifact.links[0].id}`)).expect(404);
      const list = (await guest.http.get(`${base()}?limit=100`).expect(200)).body.artifacts.map((x: any) => x.id);
      expect(list).toContain(visible.artifact.id);
      expect(list).not.toContain(concealed.artifact.id);
      // another organization, unknown and malformed ids
      await other.owner.http.get(art(visible.artifact.id)).expect(404);
      await other.owner.http.get(`/api/orgs/${other.id}/artifacts/${visible.artifact.id}`).expect(404);
      await org.owner.http.get(art(randomUUID())).expect(404);
      await org.owner.http.get(art('nope')).expect(404);
      await org.owner.http.get(art(visible.artifact.id, `/revisions/${concealed.revision.id}`)).expect(404);
    });

    it('an artifact linked to a readable and an unreadable target: readable, only the visible link shown, not writable', async () => {
      const mixed = await create({ links: [linkedTo('project', proj.id).links[0], linkedTo('project', hidden.id).links[0]] });
      const seen = (await guest.http.get(art(mixed.artifact.id)).expect(200)).body.artifact;
      expect(seen.links.map((l: any) => l.target_id)).toEqual([proj.id]);
      await guest.http.post(art(mixed.artifact.id, '/revisions')).send({ title: 'x', expected_revision_number: 1 }).expect(403);
      // editor has edit on proj only: view on hidden is not enough to write
      await editor.http.post(art(mixed.artifact.id, '/revisions')).send({ title: 'x', expected_revision_number: 1 }).expect(403);
    });

    it('unlinked artifacts belong to the organization: non-guests read and write them, guests neither', async () => {
      const own = await create({}, member);
      expect(own.artifact.links).toEqual([]);
      await editor.http.get(art(own.artifact.id)).expect(200);
      await editor.http
        .post(art(own.artifact.id, '/revisions'))
        .send({ title: uniq('t'), expected_revision_number: 1 })
        .expect(201);
      await guest.http.get(art(own.artifact.id)).expect(404);
      await guest.http.post(base()).send({ type: 'research', title: 'x', content: 'x' }).expect(403);
    });

    it("a removed member's provenance reads as null; the artifact stays", async () => {
      const gone = await newUser(t, 'gone');
      const goneId = await addMember(t, org, gone, 'member');
      const a = await create({}, gone);
      expect(a.artifact.created_by).toBe(goneId);
      await org.owner.http.delete(`/api/orgs/${org.id}/members/${goneId}`).expect(200);
      const read = (await org.owner.http.get(art(a.artifact.id)).expect(200)).body.artifact;
      expect(read.created_by).toBeNull();
      const rev = (await org.owner.http.get(art(a.artifact.id, `/revisions/${a.revision.id}`)).expect(200)).body.revision;
      expect(rev.created_by).toBeNull();
      expect((await org.owner.http.get(art(a.artifact.id, '/revisions')).expect(200)).body.revisions[0].created_by).toBeNull();
    });
  });

  describe('revisions', () => {
    it('revises with the exact expected revision; a title-only revision carries the content forward', async () => {
      const a = await create({ content: '<p>v1</p>', ...linkedTo('project', proj.id) }, editor);
      const r2 = (await editor.http.post(art(a.artifact.id, '/revisions')).send({ title: 'Second', expected_revision_id: a.revision.id }).expect(201)).body;
      expect(r2.revision).toMatchObject({ revision_number: 2, title_snapshot: 'Second', content: '<p>v1</p>', content_digest: a.revision.content_digest });
      expect(r2.artifact).toMatchObject({ title: 'Second', current_revision_id: r2.revision.id, revision_number: 2 });
      const r3 = (
        await editor.http.post(art(a.artifact.id, '/revisions')).send({ content: '**v3**', contentFormat: 'markdown', expectedRevisionNumber: 2 }).expect(201)
      ).body;
      expect(r3.revision).toMatchObject({ revision_number: 3, title_snapshot: 'Second', content_format: 'markdown', content_digest: sha(r3.revision.content) });
      // history: newest first, no content; the first revision is unchanged (immutable)
      const h = (await editor.http.get(art(a.artifact.id, '/revisions')).expect(200)).body;
      expect(h.revisions.map((x: any) => x.revision_number)).toEqual([3, 2, 1]);
      expect(h.hasMore).toBe(false);
      for (const x of h.revisions) expect(x).not.toHaveProperty('content');
      const r1 = (await editor.http.get(art(a.artifact.id, `/revisions/${a.revision.id}`)).expect(200)).body.revision;
      expect(r1).toMatchObject({ revision_number: 1, title_snapshot: a.artifact.title, content: '<p>v1</p>' });
      expect((await editor.http.get(art(a.artifact.id, '/revisions?limit=2')).expect(200)).body.hasMore).toBe(true);
    });

    it('a stale expected revision is 409 CONFLICT; an identical revision 409 unchanged_revision; bad fences 400', async () => {
      const a = await create({ content: '<p>same</p>' });
      const path = art(a.artifact.id, '/revisions');
      await org.owner.http.post(path).send({ content: '<p>new</p>', expected_revision_id: a.revision.id }).expect(201);
      const s1 = await org.owner.http.post(path).send({ content: '<p>late</p>', expected_revision_id: a.revision.id }).expect(409);
      expect(s1.body).toMatchObject({ code: 'CONFLICT', current_revision_number: 2 });
      expect((await org.owner.http.post(path).send({ content: '<p>late</p>', expected_revision_number: 1 }).expect(409)).body.code).toBe('CONFLICT');
      expect((await org.owner.http.post(path).send({ content: '<p>late</p>', expected_revision_number: 9 }).expect(409)).body.code).toBe('CONFLICT');
      expect((await org.owner.http.post(path).send({ content: '<p>new</p>', expected_revision_number: 2 }).expect(409)).body.code).toBe('unchanged_revision');
      expect((await org.owner.http.post(path).send({ expected_revision_number: 2 }).expect(409)).body.code).toBe('unchanged_revision');
      expect((await org.owner.http.post(path).send({ source_external_reference_link_id: null, expected_revision_number: 2 }).expect(409)).body.code).toBe(
        'unchanged_revision',
      );
      await org.owner.http.post(path).send({ content: 'x' }).expect(400);
      await org.owner.http.post(path).send({ content: 'x', expected_revision_id: 'abc' }).expect(400);
      await org.owner.http.post(path).send({ content: 'x', expected_revision_number: 0 }).expect(400);
      await org.owner.http.post(path).send({ content: 'x', expected_revision_number: '2' }).expect(400);
      await org.owner.http
        .post(path)
        .send({ title: '€'.repeat(67), expected_revision_number: 2 })
        .expect(400);
      await org.owner.http.post(path).send({ content: null, expected_revision_number: 2 }).expect(400);
      await org.owner.http
        .post(path)
        .send({ content: 'y'.repeat(256 * 1024 + 1), expected_revision_number: 2 })
        .expect(413);
      await org.owner.http.post(`${path}?projection=nope`).send({ title: 'x', expected_revision_number: 2 }).expect(400);
      // nothing of the refused writes was stored
      expect((await org.owner.http.get(art(a.artifact.id)).expect(200)).body.artifact.revision_number).toBe(2);
    });

    it('concurrent revisions naming the same revision: exactly one wins, numbers never repeat or skip', async () => {
      const a = await create();
      let expected = a.revision.id as string;
      for (let round = 0; round < 3; round++) {
        const results = await Promise.all(
          Array.from({ length: 8 }, (_, i) =>
            org.owner.http.post(art(a.artifact.id, '/revisions')).send({ content: `<p>round ${round} writer ${i}</p>`, expected_revision_id: expected }),
          ),
        );
        const won = results.filter((r) => r.status === 201);
        expect(won).toHaveLength(1);
        for (const r of results.filter((x) => x.status !== 201)) expect(r.body).toMatchObject({ code: 'CONFLICT' });
        expect(results.every((r) => r.status === 201 || r.status === 409)).toBe(true);
        expect(won[0].body.revision.revision_number).toBe(round + 2);
        expected = won[0].body.revision.id;
      }
      // writers that each retry after a conflict: every write lands, on consecutive numbers
      const writer = async (i: number) => {
        for (;;) {
          const cur = (await org.owner.http.get(art(a.artifact.id)).expect(200)).body.artifact;
          const r = await org.owner.http
            .post(art(a.artifact.id, '/revisions'))
            .send({ content: `<p>retry ${i}</p>`, expected_revision_number: cur.revision_number });
          if (r.status === 201) return r.body.revision.revision_number as number;
          expect(r.body.code).toBe('CONFLICT');
        }
      };
      const numbers = await Promise.all(Array.from({ length: 6 }, (_, i) => writer(i)));
      expect([...numbers].sort((x, y) => x - y)).toEqual([5, 6, 7, 8, 9, 10]);
      const all = (await org.owner.http.get(art(a.artifact.id, '/revisions?limit=100')).expect(200)).body.revisions.map((x: any) => x.revision_number);
      expect(all).toEqual(Array.from({ length: 10 }, (_, i) => 10 - i));
    });

    it('the database keeps revisions immutable and numbers gap-free', async () => {
      const a = await create();
      await expect(t.db.query('UPDATE artifact_revisions SET content = $3 WHERE org_id = $1 AND id = $2', [org.id, a.revision.id, 'x'])).rejects.toThrow(
        /immutable/,
      );
      await expect(t.db.query('DELETE FROM artifact_revisions WHERE org_id = $1 AND id = $2', [org.id, a.revision.id])).rejects.toThrow(/immutable/);
      const insert = (n: number) =>
        t.db.query(
          `INSERT INTO artifact_revisions (org_id, id, artifact_id, revision_number, title_snapshot, content, content_format, content_digest)
           VALUES ($1, $2, $3, $4, 't', 'c', 'html', $5)`,
          [org.id, randomUUID(), a.artifact.id, n, sha('c')],
        );
      await expect(insert(3)).rejects.toThrow(/artifact_revisions_previous_fk/);
      await expect(insert(1)).rejects.toThrow(/artifact_revisions_number_uq/);
      await expect(t.db.query('UPDATE artifacts SET current_revision_number = 7 WHERE org_id = $1 AND id = $2', [org.id, a.artifact.id])).rejects.toThrow(
        /current revision only moves/,
      );
    });

    it('source provenance: unknown links 404 source_reference_unavailable; projection null without a source', async () => {
      const a = await create({}, org.owner, '?projection=source_provenance_v1');
      expect(a.revision.source_reference).toBeNull();
      const missing = await org.owner.http
        .post(base())
        .send({ type: 'decision', title: 'x', content: 'x', source_external_reference_link_id: randomUUID() })
        .expect(404);
      expect(missing.body.code).toBe('source_reference_unavailable');
      const r = await org.owner.http
        .post(art(a.artifact.id, '/revisions'))
        .send({ title: uniq('t'), expected_revision_number: 1, sourceExternalReferenceLinkId: randomUUID() })
        .expect(404);
      expect(r.body.code).toBe('source_reference_unavailable');
      const rev = (await org.owner.http.get(art(a.artifact.id, `/revisions/${a.revision.id}?projection=source_provenance_v1`)).expect(200)).body.revision;
      expect(rev.source_reference).toBeNull();
      expect((await org.owner.http.get(art(a.artifact.id, `/revisions/${a.revision.id}`)).expect(200)).body.revision).not.toHaveProperty('source_reference');
      for (const q of ['?projection=source_provenance_v2', '?projection=source_provenance_v1&projection=source_provenance_v1'])
        await org.owner.http.get(art(a.artifact.id, `/revisions/${a.revision.id}${q}`)).expect(400);
    });
  });

  describe('links', () => {
    it('one prd and one implementation_plan per issue, each on one issue only; duplicates 409', async () => {
      const i1 = await issueIn(proj.id);
      const i2 = await issueIn(proj.id);
      const prd = await create({ type: 'prd', ...linkedTo('issue', i1.id) });
      const second = await org.owner.http
        .post(base())
        .send({ type: 'prd', title: 'x', content: 'x', ...linkedTo('issue', i1.id) })
        .expect(409);
      expect(second.body.code).toBe('artifact_type_taken');
      const free = await create({ type: 'prd' });
      expect((await org.owner.http.post(art(free.artifact.id, '/links')).send({ target_type: 'issue', target_id: i1.id }).expect(409)).body.code).toBe(
        'artifact_type_taken',
      );
      expect((await org.owner.http.post(art(prd.artifact.id, '/links')).send({ target_type: 'issue', target_id: i2.id }).expect(409)).body.code).toBe(
        'artifact_issue_taken',
      );
      expect((await org.owner.http.post(art(prd.artifact.id, '/links')).send({ target_type: 'issue', target_id: i1.id }).expect(409)).body.code).toBe(
        'artifact_link_exists',
      );
      await create({ type: 'implementation_plan', ...linkedTo('issue', i1.id) });
      await create({ type: 'test_plan', ...linkedTo('issue', i1.id) });
      await create({ type: 'test_plan', ...linkedTo('issue', i1.id) });
      // a prd may also link to projects
      await org.owner.http.post(art(prd.artifact.id, '/links')).send({ target_type: 'project', target_id: proj.id }).expect(201);
      // the failed create left nothing behind
      expect((await t.db.query('SELECT count(*)::int AS n FROM artifacts WHERE org_id = $1 AND title = $2', [org.id, 'x']))[0].n).toBe(0);
    });

    it('links by any reference form, needs write on the artifact and edit on the target; the final link needs owner/admin', async () => {
      const issue = await issueIn(proj.id);
      const a = await create(linkedTo('project', proj.id), editor);
      const l = (
        await editor.http
          .post(art(a.artifact.id, '/links'))
          .send({ targetType: 'issue', targetId: `#${issue.number}` })
          .expect(201)
      ).body.link;
      expect(l).toMatchObject({
        artifact_id: a.artifact.id,
        artifact_type: 'decision',
        target_type: 'issue',
        target_id: issue.id,
        created_by: expect.any(String),
      });
      await editor.http.post(art(a.artifact.id, '/links')).send({ target_type: 'project', target_id: hidden.id }).expect(403);
      await member.http.post(art(a.artifact.id, '/links')).send({ target_type: 'project', target_id: hidden.id }).expect(403);
      await editor.http.post(art(a.artifact.id, '/links')).send({ target_type: 'board', target_id: hidden.id }).expect(400);
      await editor.http.delete(art(a.artifact.id, `/links/${randomUUID()}`)).expect(404);
      await member.http.delete(art(a.artifact.id, `/links/${l.id}`)).expect(403);
      await editor.http.delete(art(a.artifact.id, `/links/${l.id}`)).expect(200);
      const last = (await editor.http.get(art(a.artifact.id)).expect(200)).body.artifact.links;
      expect(last).toHaveLength(1);
      expect((await editor.http.delete(art(a.artifact.id, `/links/${last[0].id}`)).expect(403)).body.code).toBe('forbidden');
      expect(await editor.http.delete(art(a.artifact.id, `/links/${last[0].id}`)).then((r) => r.status)).toBe(403);
      await org.owner.http.delete(art(a.artifact.id, `/links/${last[0].id}`)).expect(200);
      expect((await org.owner.http.get(art(a.artifact.id)).expect(200)).body.artifact.links).toEqual([]);
    });

    it('an issue or project with artifact links cannot be deleted (409 artifact_links_exist) until unlinked', async () => {
      const p = (
        await org.owner.http
          .post(`/api/orgs/${org.id}/projects`)
          .send({ name: uniq('Doomed'), key: `D${Date.now() % 100000}` })
          .expect(201)
      ).body.project;
      const issue = await issueIn(p.id);
      const a = await create(linkedTo('issue', issue.id));
      const del = await org.owner.http.delete(`/api/orgs/${org.id}/issues/${issue.id}`).expect(409);
      expect(del.body).toMatchObject({ code: 'artifact_links_exist', error: expect.stringMatching(/artifact/i) });
      await org.owner.http.get(`/api/orgs/${org.id}/issues/${issue.id}`).expect(200);
      // the project holds the linked issue: refused too
      expect((await org.owner.http.delete(`/api/orgs/${org.id}/projects/${p.id}`).send({ confirmation: 'DELETE' }).expect(409)).body.code).toBe(
        'artifact_links_exist',
      );
      const onProject = await create(linkedTo('project', p.id));
      await org.owner.http.delete(art(a.artifact.id, `/links/${a.artifact.links[0].id}`)).expect(200);
      await org.owner.http.delete(`/api/orgs/${org.id}/issues/${issue.id}`).expect(200);
      expect((await org.owner.http.delete(`/api/orgs/${org.id}/projects/${p.id}`).send({ confirmation: 'DELETE' }).expect(409)).body.code).toBe(
        'artifact_links_exist',
      );
      await org.owner.http.delete(art(onProject.artifact.id, `/links/${onProject.artifact.links[0].id}`)).expect(200);
      await org.owner.http.delete(`/api/orgs/${org.id}/projects/${p.id}`).send({ confirmation: 'DELETE' }).expect(200);
    });
  });

  describe('issue detail manifest', () => {
    it('include=artifact_manifest lists the linked artifacts without content; without it nothing is added', async () => {
      const issue = await issueIn(proj.id);
      const prd = await create({ type: 'prd', ...linkedTo('issue', issue.id) });
      const plan = await create({ type: 'implementation_plan', ...linkedTo('issue', issue.id) });
      await org.owner.http.post(art(prd.artifact.id, '/revisions')).send({ title: 'PRD v2', expected_revision_number: 1 }).expect(201);
      const plain = (await guest.http.get(`/api/orgs/${org.id}/issues/${issue.id}`).expect(200)).body.issue;
      expect(plain).not.toHaveProperty('artifact_manifest');
      const detail = (await guest.http.get(`/api/orgs/${org.id}/issues/${proj.key}-${issue.number}?include=artifact_manifest`).expect(200)).body.issue;
      expect(detail.artifact_manifest).toHaveLength(2);
      const entry = detail.artifact_manifest.find((e: any) => e.id === prd.artifact.id);
      expect(entry).toEqual({
        id: prd.artifact.id,
        artifact_id: prd.artifact.id,
        type: 'prd',
        title: 'PRD v2',
        current_revision_id: expect.any(String),
        revision_number: 2,
        created_at: expect.any(String),
        updated_at: expect.any(String),
      });
      expect(detail.artifact_manifest.map((e: any) => e.id)).toContain(plan.artifact.id);
      expect(
        (await org.owner.http.get(`/api/orgs/${org.id}/issues/${(await issueIn(proj.id)).id}?include=artifact_manifest`).expect(200)).body.issue
          .artifact_manifest,
      ).toEqual([]);
    });
  });

  describe('events', () => {
    it('timeline entries on linked issues and webhook broadcasts artifact.created / artifact.revised (schema version 2, no content)', async () => {
      const hook = await insertWebhookRow(t, org.id, { events: ['artifact.created', 'artifact.revised'] });
      const issue = await issueIn(proj.id);
      const a = await create({ content: '<p>TOP-SECRET-BODY</p>', ...linkedTo('issue', issue.id) }, editor);
      await editor.http.post(art(a.artifact.id, '/revisions')).send({ title: 'Renamed', expected_revision_number: 1 }).expect(201);
      const created = await activityRows(t, org.id, issue.id, 'artifact.created');
      expect(created).toHaveLength(1);
      expect(created[0].metadata).toMatchObject({ artifact_id: a.artifact.id, artifact_type: 'decision', revision_number: 1, actor: { type: 'human' } });
      const revised = await activityRows(t, org.id, issue.id, 'artifact.revised');
      expect(revised[0].metadata).toMatchObject({ artifact_id: a.artifact.id, title: 'Renamed', revision_number: 2 });
      const timeline = (await editor.http.get(`/api/orgs/${org.id}/issues/${issue.id}/activity`).expect(200)).body.data.map((e: any) => e.action);
      expect(timeline).toEqual(expect.arrayContaining(['artifact.created', 'artifact.revised']));

      const rows: Array<{ event: string; schema_version: number; body: string }> = await t.db.query(
        'SELECT event, schema_version, body FROM webhook_deliveries WHERE org_id = $1 AND webhook_id = $2 ORDER BY created_at',
        [org.id, hook],
      );
      expect(rows.map((r) => r.event)).toEqual(['artifact.created', 'artifact.revised']);
      for (const r of rows) {
        expect(r.schema_version).toBe(2);
        expect(r.body).not.toContain('TOP-SECRET-BODY');
      }
      const body = JSON.parse(rows[1].body);
      expect(body).toMatchObject({
        event: 'artifact.revised',
        schema_version: 2,
        organization_id: org.id,
        artifact: { id: a.artifact.id, type: 'decision', title: 'Renamed', revision_number: 2 },
        revision: { revision_number: 2, title_snapshot: 'Renamed', content_digest: a.revision.content_digest },
        links: [{ target_type: 'issue', target_id: issue.id }],
      });
      // destinations subscribe to the artifact events through the API
      const created2 = await org.owner.http
        .post(`/api/webhooks?orgId=${org.id}`)
        .send({ url: 'https://hooks.example.com/a', events: ['artifact.created', 'artifact.revised'] })
        .expect(201);
      expect(created2.body.webhook.events).toEqual(['artifact.created', 'artifact.revised']);
    });
  });
});
