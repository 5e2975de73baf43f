import { addMember, bearer, newAgent, newOrg, newProject, newUser, randomId, type TestOrg, type TestUser } from '../support/factories';
import { startTestApp, type TestApp } from '../support/app';
import { withoutDetails } from '../support/errors';

let seq = 0;
/** An issue row written directly (the issues module is built in parallel). */
async function newIssue(t: TestApp, org: TestOrg, projectId: string | null, title = 'Issue'): Promise<string> {
  const id = randomId();
  seq += 1;
  await t.db.query('INSERT INTO issues (org_id, id, project_id, number, title, status, created_by_member_id) VALUES ($1, $2, $3, $4, $5, $6, $7)', [
    org.id,
    id,
    projectId,
    100000 + seq,
    title,
    'todo',
    org.ownerMemberId,
  ]);
  return id;
}

describe('comments', () => {
  let t: TestApp;
  let org: TestOrg;
  let project: { id: string };
  let hidden: { id: string };
  let issue: string;
  let projectless: string;
  let hiddenIssue: string;
  let editor: { user: TestUser; memberId: string };
  let viewer: { user: TestUser; memberId: string };
  let guest: { user: TestUser; memberId: string };
  let outsider: TestOrg;
  let agent: { memberId: string; key: string };

  const url = (issueId: string, rest = '') => `/api/orgs/${org.id}/issues/${issueId}/comments${rest}`;
  const join = async (role: 'admin' | 'member' | 'guest') => {
    const user = await newUser(t, role);
    return { user, memberId: await addMember(t, org, user, role) };
  };
  const grant = (projectId: string, memberId: string, accessLevel: 'view' | 'edit' | 'admin') =>
    org.owner.http.post(`/api/orgs/${org.id}/projects/${projectId}/members`).send({ memberId, accessLevel }).expect(201);

  beforeAll(async () => {
    t = await startTestApp();
    org = await newOrg(t);
    project = await newProject(t, org);
    hidden = await newProject(t, org);
    issue = await newIssue(t, org, project.id);
    projectless = await newIssue(t, org, null);
    hiddenIssue = await newIssue(t, org, hidden.id);
    editor = await join('member');
    await grant(project.id, editor.memberId, 'edit');
    viewer = await join('member');
    guest = await join('guest');
    await grant(project.id, guest.memberId, 'view');
    outsider = await newOrg(t);
    const a = await newAgent(t, org, {});
    agent = { memberId: a.memberId, key: a.key };
    await grant(project.id, agent.memberId, 'edit');
  });
  afterAll(() => t.close());

  describe('POST', () => {
    it('creates from Markdown: 201 with the sanitized HTML comment, author and outcome', async () => {
      const res = await editor.user.http.post(url(issue)).send({ body: 'Hello **world**, see https://example.com' }).expect(201);
      const c = res.body.comment;
      expect(c).toMatchObject({
        issue_id: issue,
        author_type: 'member',
        author_id: editor.memberId,
        author: { id: editor.memberId, display_name: editor.user.name, type: 'human', avatar_url: null },
        reply_to_comment_id: null,
        reply_to_comment: null,
        source_metadata: null,
        mentioned_members: [],
        edited_at: null,
      });
      expect(c.body).toContain('<strong>world</strong>');
      expect(c.body).toContain('<a href="https://example.com" rel="noopener noreferrer nofollow">https://example.com</a>');
      expect(new Date(c.created_at).toISOString()).toBe(c.created_at);
      expect(res.body.mentions).toEqual({ requested: 0, created: 0, skipped: [] });
      expect(res.body.outcome).toEqual({ mentions: { requested: 0, created: 0, skipped: [] }, persistence: { status: 'persisted', comment_id: c.id } });
      const stored = await t.db.query('SELECT body, author_member_id FROM comments WHERE org_id = $1 AND id = $2', [org.id, c.id]);
      expect(stored[0]).toEqual({ body: c.body, author_member_id: editor.memberId });
    });

    it('plain text is escaped, never interpreted as HTML in Markdown mode', async () => {
      const res = await editor.user.http.post(url(issue)).send({ body: 'a < b and 3 > 2 & done' }).expect(201);
      expect(res.body.comment.body).toBe('<p>a &lt; b and 3 &gt; 2 &amp; done</p>');
    });

    it.each([
      ['script tag', '<p>hi</p><script>alert(1)</script>', '<p>hi</p>'],
      ['script in Markdown', 'hi <script>alert(1)</script>', 'hi'],
      ['img onerror', '<p>x<img src="https://img.example/a.png" onerror="alert(1)"></p>', '<p>x<img src="https://img.example/a.png" /></p>'],
      ['javascript link', '<p><a href="javascript:alert(1)">click</a></p>', '<p><a>click</a></p>'],
      ['obfuscated javascript link', '<a href=" JaVaScRiPt:alert(1)">x</a>', '<a>x</a>'],
      ['entity-obfuscated javascript link', '<a href="java&#x09;script:alert(1)">x</a>', '<a>x</a>'],
      ['style attribute and handler', '<p style="color:red" onclick="steal()">fancy</p>', '<p>fancy</p>'],
      ['style element', '<style>body{display:none}</style><p>ok</p>', '<p>ok</p>'],
      ['data: link', '<a href="data:text/html;base64,PHNjcmlwdD4=">d</a>', '<a>d</a>'],
      ['data: image', '<p>pic<img src="data:image/png;base64,AAAA"></p>', '<p>pic</p>'],
      ['iframe', '<p>a</p><iframe src="https://evil.example">inner</iframe>', '<p>a</p>'],
      ['svg script', '<p>b</p><svg><script>alert(1)</script></svg>', '<p>b</p>'],
      ['nested/malformed', '<div><p>unclosed <b>bold <i>it', '<p>unclosed <strong>bold <em>it</em></strong></p>'],
      ['broken script tag', '<<script>script>alert(1)<</script>/script><p>t</p>', '&lt;/script&gt;<p>t</p>'],
      [
        'link rel/target forced',
        '<a href="https://e.example" target="_blank" rel="opener">l</a>',
        '<a href="https://e.example" rel="noopener noreferrer nofollow">l</a>',
      ],
      ['mailto kept', '<a href="mailto:a@example.com">m</a>', '<a href="mailto:a@example.com" rel="noopener noreferrer nofollow">m</a>'],
    ])('sanitizes %s', async (_name, body, expected) => {
      const res = await editor.user.http.post(url(issue)).send({ body }).expect(201);
      expect(res.body.comment.body).toBe(expected);
      expect(res.body.comment.body).not.toMatch(/<script|<style|<iframe|<svg|\son\w+=|javascript:|data:|style=/i);
    });

    it('tags inside Markdown code stay literal code (Markdown mode), escaped', async () => {
      const span = await editor.user.http.post(url(issue)).send({ body: 'Use `<div onclick="x()">` here' }).expect(201);
      expect(span.body.comment.body).toBe('<p>Use <code>&lt;div onclick="x()"&gt;</code> here</p>');
      const fence = await editor.user.http.post(url(issue)).send({ body: '```html\n<script>alert(1)</script>\n```\ndone' }).expect(201);
      expect(fence.body.comment.body).toBe('<pre><code>&lt;script&gt;alert(1)&lt;/script&gt;\n</code></pre>\n<p>done</p>');
      expect(fence.body.comment.body).not.toMatch(/<script|class=/);
    });

    it('keeps allowed rich text: lists, code, quotes, headings, tables, safe images', async () => {
      const html =
        '<h2>T</h2><ul><li>a</li></ul><ol><li>b</li></ol><pre><code>x</code></pre><blockquote>q</blockquote><hr><del>d</del>' +
        '<table><thead><tr><th>h</th></tr></thead><tbody><tr><td>c</td></tr></tbody></table><img src="https://i.example/x.png" alt="alt">';
      const res = await editor.user.http.post(url(issue)).send({ body: html }).expect(201);
      expect(res.body.comment.body).toBe(
        '<h2>T</h2><ul><li>a</li></ul><ol><li>b</li></ol><pre><code>x</code></pre><blockquote>q</blockquote><hr /><del>d</del>' +
          '<table><thead><tr><th>h</th></tr></thead><tbody><tr><td>c</td></tr></tbody></table><img src="https://i.example/x.png" alt="alt" />',
      );
    });

    it('an image-only body is safe media (accepted)', async () => {
      const res = await editor.user.http.post(url(issue)).send({ body: '<img src="https://i.example/only.png">' }).expect(201);
      expect(res.body.comment.body).toBe('<img src="https://i.example/only.png" />');
    });

    it.each([
      ['empty paragraph', '<p> </p>'],
      ['nbsp only', '<p>&nbsp;</p>'],
      ['whitespace', '   \n\t '],
      ['empty string', ''],
      ['only a script', '<script>alert(1)</script>'],
      ['only an unsafe image', '<img src="javascript:alert(1)">'],
      ['only a data image', '<img src="data:image/png;base64,AAAA" onerror="x()">'],
      ['only a rule', '<hr>'],
    ])('400 body is required when nothing visible remains: %s', async (_n, body) => {
      const res = await editor.user.http.post(url(issue)).send({ body }).expect(400);
      expect(res.body.error).toBe('body is required');
    });

    it('400 for a missing, null, non-string or oversized body (never 500)', async () => {
      expect((await editor.user.http.post(url(issue)).send({}).expect(400)).body.error).toBe('body is required');
      expect((await editor.user.http.post(url(issue)).send({ body: null }).expect(400)).body.error).toBe('body is required');
      await editor.user.http.post(url(issue)).send({ body: 42 }).expect(400);
      await editor.user.http
        .post(url(issue))
        .send({ body: ['x'] })
        .expect(400);
      await editor.user.http
        .post(url(issue))
        .send({ body: { html: 'x' } })
        .expect(400);
      await editor.user.http
        .post(url(issue))
        .send({ body: 'x'.repeat(100001) })
        .expect(400);
      await editor.user.http.post(url(issue)).set('content-type', 'application/json').send('[1]').expect(400);
      await editor.user.http.post(url(issue)).send({ body: 'ok', mentions: 'nope' }).expect(400);
      await editor.user.http
        .post(url(issue))
        .send({ body: 'ok', mentions: Array.from({ length: 51 }, () => ({ member_id: randomId() })) })
        .expect(400);
    });

    it('401 without credentials; 404 for other org and missing issues, unreadable project; 400 for a malformed reference', async () => {
      await t.http().post(url(issue)).send({ body: 'x' }).expect(401);
      await outsider.owner.http.post(url(issue)).send({ body: 'x' }).expect(404);
      await outsider.owner.http.post(`/api/orgs/${outsider.id}/issues/${issue}/comments`).send({ body: 'x' }).expect(404);
      expect((await editor.user.http.post(url('not-a-uuid')).send({ body: 'x' }).expect(400)).body.code).toBe('invalid_reference');
      await editor.user.http.post(url(randomId())).send({ body: 'x' }).expect(404);
      await guest.user.http.post(url(hiddenIssue)).send({ body: 'x' }).expect(404);
    });

    it('403 for view-only access (member baseline, guest with view); guests get 404 on projectless issues', async () => {
      expect((await viewer.user.http.post(url(issue)).send({ body: 'x' }).expect(403)).body.code).toBe('forbidden');
      await guest.user.http.post(url(issue)).send({ body: 'x' }).expect(403);
      await guest.user.http.post(url(projectless)).send({ body: 'x' }).expect(404);
      await guest.user.http.get(url(projectless)).expect(404);
      // non-guests write projectless issues
      await viewer.user.http.post(url(projectless)).send({ body: 'projectless note' }).expect(201);
    });
  });

  describe('mentions', () => {
    it('creates, skips with reasons, counts duplicates once and lists mentioned_members', async () => {
      const outsiderMember = outsider.ownerMemberId;
      const removed = await join('member');
      await org.owner.http.delete(`/api/orgs/${org.id}/members/${removed.memberId}`).expect((r) => expect([200, 204]).toContain(r.status));
      const mentions = [
        { member_id: viewer.memberId },
        { member_id: viewer.memberId.toUpperCase() },
        { member_id: editor.memberId },
        { member_id: 'nope' },
        { member_id: 12 },
        { member_id: randomId() },
        { member_id: outsiderMember },
        { member_id: removed.memberId },
        { member_id: guest.memberId },
        { member_id: agent.memberId },
      ];
      const res = await editor.user.http.post(url(issue)).send({ body: 'ping', mentions }).expect(201);
      const m = res.body.mentions;
      expect(m.requested).toBe(9);
      expect(m.created).toBe(3);
      const reasons = Object.fromEntries(m.skipped.map((s: any) => [String(s.member_id), s.reason]));
      expect(reasons).toEqual({
        [editor.memberId]: 'self_mention',
        nope: 'invalid_member_id',
        '12': 'invalid_member_id',
        [mentions[5].member_id as string]: 'not_found',
        [outsiderMember]: 'not_found',
        [removed.memberId]: 'not_found',
      });
      expect(res.body.outcome.mentions).toEqual(m);
      expect(res.body.comment.mentioned_members.map((x: any) => x.id).sort()).toEqual([viewer.memberId, guest.memberId, agent.memberId].sort());
      const list = await editor.user.http.get(url(issue)).expect(200);
      const item = list.body.comments.find((c: any) => c.id === res.body.comment.id);
      expect(item.mentioned_members).toEqual(expect.arrayContaining([{ id: viewer.memberId, display_name: viewer.user.name, type: 'human' }]));
      expect(item.mentioned_members).toHaveLength(3);
    });

    it('no_project_access for members who cannot read the project; guest_unprojected_issue on projectless issues', async () => {
      const otherGuest = await join('guest');
      const res = await editor.user.http
        .post(url(issue))
        .send({ body: 'x', mentions: [{ member_id: otherGuest.memberId }] })
        .expect(201);
      expect(res.body.mentions).toEqual({ requested: 1, created: 0, skipped: [{ member_id: otherGuest.memberId, reason: 'no_project_access' }] });
      const res2 = await editor.user.http
        .post(url(projectless))
        .send({ body: 'x', mentions: [{ member_id: guest.memberId }, { member_id: viewer.memberId }] })
        .expect(201);
      expect(res2.body.mentions).toEqual({ requested: 2, created: 1, skipped: [{ member_id: guest.memberId, reason: 'guest_unprojected_issue' }] });
    });

    it('mentions_muted for a target who muted in-app mentions (after the access check); unmuting restores mentions', async () => {
      const muter = await join('member');
      const noAccess = await join('guest');
      const prefs = `/api/orgs/${org.id}/notifications/preferences`;
      await muter.user.http.post(prefs).send({ event_type: 'mention.created', enabled: false }).expect(200);
      await noAccess.user.http.post(prefs).send({ event_type: 'mention.created', enabled: false }).expect(200);
      const res = await editor.user.http
        .post(url(issue))
        .send({ body: 'x', mentions: [{ member_id: muter.memberId }, { member_id: noAccess.memberId }, { member_id: viewer.memberId }] })
        .expect(201);
      expect(res.body.mentions).toEqual({
        requested: 3,
        created: 1,
        skipped: [
          { member_id: muter.memberId, reason: 'mentions_muted' },
          { member_id: noAccess.memberId, reason: 'no_project_access' },
        ],
      });
      expect(res.body.comment.mentioned_members.map((x: any) => x.id)).toEqual([viewer.memberId]);
      await muter.user.http.post(prefs).send({ event_type: 'mention.created', enabled: true }).expect(200);
      const again = await editor.user.http
        .post(url(issue))
        .send({ body: 'y', mentions: [{ member_id: muter.memberId }] })
        .expect(201);
      expect(again.body.mentions).toEqual({ requested: 1, created: 1, skipped: [] });
    });
  });

  describe('replies and source metadata', () => {
    it('reply_to_comment_id: 400 non-UUID, 404 unknown or other issue, shallow parent kept after the parent is deleted', async () => {
      const parent = (
        await bearer(t, agent.key)
          .post(url(issue))
          .send({ body: 'parent', source_metadata: { harness: 'claude-code', thread_id: 't-1' } })
          .expect(201)
      ).body.comment;
      expect(parent.author_id).toBe(agent.memberId);
      expect(parent.source_metadata).toEqual({ harness: 'claude-code', thread_id: 't-1' });
      await editor.user.http.post(url(issue)).send({ body: 'r', reply_to_comment_id: 'abc' }).expect(400);
      await editor.user.http.post(url(issue)).send({ body: 'r', reply_to_comment_id: 5 }).expect(400);
      await editor.user.http.post(url(issue)).send({ body: 'r', reply_to_comment_id: randomId() }).expect(404);
      const elsewhere = (await viewer.user.http.post(url(projectless)).send({ body: 'elsewhere' }).expect(201)).body.comment;
      await editor.user.http.post(url(issue)).send({ body: 'r', reply_to_comment_id: elsewhere.id }).expect(404);
      const reply = (await editor.user.http.post(url(issue)).send({ body: 'reply', replyToCommentId: parent.id }).expect(201)).body.comment;
      expect(reply.reply_to_comment_id).toBe(parent.id);
      expect(reply.reply_to_comment).toMatchObject({
        id: parent.id,
        author_id: agent.memberId,
        author_type: 'member',
        source_metadata: { harness: 'claude-code', thread_id: 't-1' },
        deleted: false,
      });
      await bearer(t, agent.key)
        .delete(url(issue, `/${parent.id}`))
        .expect(200);
      const read = (await editor.user.http.get(url(issue, `/${reply.id}`)).expect(200)).body.comment;
      expect(read.reply_to_comment).toMatchObject({ id: parent.id, source_metadata: { harness: 'claude-code', thread_id: 't-1' }, deleted: true });
      expect(JSON.stringify(read.reply_to_comment)).not.toContain('parent');
      // replying to a deleted comment is not possible
      await editor.user.http.post(url(issue)).send({ body: 'r', reply_to_comment_id: parent.id }).expect(404);
    });

    it('source_metadata: agents only, known keys only, bounded strings', async () => {
      const a = bearer(t, agent.key);
      const ok = await a
        .post(url(issue))
        .send({ body: 'x', sourceMetadata: { harness: 'h', session_id: 's', host_id: 'host' } })
        .expect(201);
      expect(ok.body.comment.source_metadata).toEqual({ harness: 'h', session_id: 's', host_id: 'host' });
      await a
        .post(url(issue))
        .send({ body: 'x', source_metadata: { harness: 'h', token: 'secret' } })
        .expect(400);
      await a.post(url(issue)).send({ body: 'x', source_metadata: 'h' }).expect(400);
      await a
        .post(url(issue))
        .send({ body: 'x', source_metadata: ['h'] })
        .expect(400);
      await a
        .post(url(issue))
        .send({ body: 'x', source_metadata: { harness: 5 } })
        .expect(400);
      await a
        .post(url(issue))
        .send({ body: 'x', source_metadata: { thread_id: 'x'.repeat(201) } })
        .expect(400);
      await a
        .post(url(issue))
        .send({ body: 'x', source_metadata: { thread_id: 'a\u0000b' } })
        .expect(400);
      await a
        .post(url(issue))
        .send({ body: 'x', source_metadata: { thread_id: 'a\nb' } })
        .expect(400);
      const human = await editor.user.http
        .post(url(issue))
        .send({ body: 'x', source_metadata: { harness: 'h' } })
        .expect(400);
      expect(human.body.error).toMatch(/agents/);
    });
  });

  describe('GET list and single', () => {
    it('lists live comments oldest first with paging; guests with view read; single read; 404 concealment', async () => {
      const i = await newIssue(t, org, project.id);
      const ids: string[] = [];
      for (const body of ['one', 'two', 'three']) ids.push((await editor.user.http.post(url(i)).send({ body }).expect(201)).body.comment.id);
      const all = await guest.user.http.get(url(i)).expect(200);
      expect(all.body.comments.map((c: any) => c.id)).toEqual(ids);
      expect(all.body).toMatchObject({ total: 3, offset: 0 });
      const page = await viewer.user.http.get(url(i)).query({ limit: 1, offset: 1 }).expect(200);
      expect(page.body).toMatchObject({ total: 3, limit: 1, offset: 1 });
      expect(page.body.comments.map((c: any) => c.body)).toEqual(['<p>two</p>']);
      const env = await viewer.user.http.get(url(i)).query({ shape: 'envelope', limit: 2 }).expect(200);
      expect(env.body).toMatchObject({ resource: 'comments', total: 3, nextOffset: 2, truncated: true });
      await viewer.user.http.get(url(i)).query({ limit: 'x' }).expect(400);
      await viewer.user.http.get(url(i)).query({ offset: -1 }).expect(400);
      const one = await guest.user.http.get(url(i, `/${ids[0]}`)).expect(200);
      expect(one.body.comment).toMatchObject({ id: ids[0], body: '<p>one</p>', author_id: editor.memberId });
      await t.http().get(url(i)).expect(401);
      await t
        .http()
        .get(url(i, `/${ids[0]}`))
        .expect(401);
      await outsider.owner.http.get(url(i)).expect(404);
      await outsider.owner.http.get(`/api/orgs/${outsider.id}/issues/${i}/comments/${ids[0]}`).expect(404);
      await guest.user.http.get(url(hiddenIssue)).expect(404);
      await viewer.user.http.get(url(i, '/not-a-uuid')).expect(404);
      await viewer.user.http.get(url(i, `/${randomId()}`)).expect(404);
      // a comment addressed through another issue is not found
      await viewer.user.http.get(url(issue, `/${ids[0]}`)).expect(404);
    });
  });

  describe('PATCH and DELETE', () => {
    it('PATCH: the author edits (sanitized, edited_at); others 403; view-only 403; bad bodies 400; unknown 404', async () => {
      const c = (await editor.user.http.post(url(issue)).send({ body: 'first' }).expect(201)).body.comment;
      const res = await editor.user.http
        .patch(url(issue, `/${c.id}`))
        .send({ body: 'second <script>x()</script><a href="javascript:x">l</a>' })
        .expect(200);
      expect(res.body.comment).toMatchObject({ id: c.id, body: 'second <a>l</a>', author_id: editor.memberId });
      expect(res.body.comment.edited_at).not.toBeNull();
      expect(res.body.comment.created_at).toBe(c.created_at);
      const other = await join('admin');
      expect(
        (
          await other.user.http
            .patch(url(issue, `/${c.id}`))
            .send({ body: 'hijack' })
            .expect(403)
        ).body.code,
      ).toBe('forbidden');
      await viewer.user.http
        .patch(url(issue, `/${c.id}`))
        .send({ body: 'x' })
        .expect(403);
      expect(
        (
          await editor.user.http
            .patch(url(issue, `/${c.id}`))
            .send({ body: '<p> </p>' })
            .expect(400)
        ).body.error,
      ).toBe('body is required');
      await editor.user.http
        .patch(url(issue, `/${c.id}`))
        .send({})
        .expect(400);
      await editor.user.http
        .patch(url(issue, `/${c.id}`))
        .send({ body: 7 })
        .expect(400);
      await editor.user.http
        .patch(url(issue, `/${randomId()}`))
        .send({ body: 'x' })
        .expect(404);
      await t
        .http()
        .patch(url(issue, `/${c.id}`))
        .send({ body: 'x' })
        .expect(401);
      await outsider.owner.http
        .patch(url(issue, `/${c.id}`))
        .send({ body: 'x' })
        .expect(404);
      const read = await viewer.user.http.get(url(issue, `/${c.id}`)).expect(200);
      expect(read.body.comment.body).toBe('second <a>l</a>');
    });

    it('adversarial bodies: a backtick run at the limit is accepted, 1 MiB is a 400 before parsing, errors keep their order', async () => {
      // (the old code-span pattern took seconds on this body; it is now read in one pass, before the transaction)
      const run = (
        await editor.user.http
          .post(url(issue))
          .send({ body: `a${'`'.repeat(99_999)}` })
          .expect(201)
      ).body.comment;
      expect(run.body).toBe(`<p>a${'`'.repeat(99_999)}</p>`);
      const huge = await editor.user.http
        .post(url(issue))
        .send({ body: '`'.repeat(1 << 20) })
        .expect(400);
      expect(withoutDetails(huge.body)).toEqual({ error: 'body must be at most 100000 characters', code: 'validation_failed' });
      // the body is parsed ahead of the transaction, but its 400 still comes after the 404 and 403 of the comment
      const other = await join('admin');
      await other.user.http
        .patch(url(issue, `/${run.id}`))
        .send({ body: 7 })
        .expect(403);
      await editor.user.http
        .patch(url(issue, `/${randomId()}`))
        .send({ body: '   ' })
        .expect(404);
      await editor.user.http
        .patch(url(issue, `/${run.id}`))
        .send({ body: '`'.repeat(1 << 20) })
        .expect(400);
    });

    it('DELETE: soft delete by the author hides it; nobody else may delete it (owners included); deleted is 404', async () => {
      const c = (await editor.user.http.post(url(issue)).send({ body: 'to delete' }).expect(201)).body.comment;
      const other = await join('member');
      await grant(project.id, other.memberId, 'edit');
      await other.user.http.delete(url(issue, `/${c.id}`)).expect(403);
      await viewer.user.http.delete(url(issue, `/${c.id}`)).expect(403);
      await t
        .http()
        .delete(url(issue, `/${c.id}`))
        .expect(401);
      await outsider.owner.http.delete(url(issue, `/${c.id}`)).expect(404);
      expect((await editor.user.http.delete(url(issue, `/${c.id}`)).expect(200)).body).toEqual({ success: true });
      const row = await t.db.query('SELECT deleted_at FROM comments WHERE org_id = $1 AND id = $2', [org.id, c.id]);
      expect(row[0].deleted_at).not.toBeNull();
      await editor.user.http.get(url(issue, `/${c.id}`)).expect(404);
      await editor.user.http
        .patch(url(issue, `/${c.id}`))
        .send({ body: 'x' })
        .expect(404);
      await editor.user.http.delete(url(issue, `/${c.id}`)).expect(404);
      const list = await editor.user.http.get(url(issue)).query({ limit: 100 }).expect(200);
      expect(list.body.comments.map((x: any) => x.id)).not.toContain(c.id);
      const c2 = (await editor.user.http.post(url(issue)).send({ body: 'not the owner’s' }).expect(201)).body.comment;
      await org.owner.http.delete(url(issue, `/${c2.id}`)).expect(403);
    });

    it('publishes comment.created/updated/deleted activity without the body', async () => {
      const i = await newIssue(t, org, project.id);
      const c = (await editor.user.http.post(url(i)).send({ body: 'secret words' }).expect(201)).body.comment;
      await editor.user.http
        .patch(url(i, `/${c.id}`))
        .send({ body: 'more secret words' })
        .expect(200);
      await editor.user.http.delete(url(i, `/${c.id}`)).expect(200);
      const act = await editor.user.http.get(`/api/orgs/${org.id}/issues/${i}/activity`).expect(200);
      expect(act.body.data.map((e: any) => e.action)).toEqual(['comment.deleted', 'comment.updated', 'comment.created']);
      for (const e of act.body.data) expect(e.metadata.comment_id).toBe(c.id);
      expect(JSON.stringify(act.body)).not.toContain('secret');
    });
  });
});
