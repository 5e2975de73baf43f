import { randomUUID } from 'node:crypto';
import type { Response } from 'supertest';
import { startTestApp, type TestApp } from '../support/app';
import { addMember, newOrg, newProject, newUser, type TestOrg, type TestUser, uniq } from '../support/factories';
import { grant } from '../support/issues';

/**
 * Every route below an issue (PATCH/DELETE/archive, comments, dependencies, attachments, activity,
 * subtasks, labels, initiatives) takes every reference form of the issue detail (UUID, KEY-n, #n,
 * n, TSK-n, ORGPREFIX-n) and answers its reference errors: 400 invalid_reference, 404
 * reference_not_found (also for an issue the caller cannot read, whatever the form), 409
 * ambiguous_reference.
 *
 * Numbering of the fixture: project P gets issues 1.., project Q only issue 1 (so `#1` and `1` are
 * ambiguous), project H (unreadable to the guest) starts at 501 (so `#501` names only its issue);
 * numbers ≥ 2 of P are unique in the organization, and the organization has no projectless issue.
 */
describe('issue references on issue sub-routes', () => {
  let t: TestApp;
  let org: TestOrg;
  let guest: TestUser;
  let P: { id: string; key: string };
  let Q: { id: string; key: string };
  let H: { id: string; key: string };
  let hidden: Issue;
  let label: { id: string };
  let initiative: { id: string };
  let columns: { todo: string; done: string };

  interface Issue {
    id: string;
    number: number;
  }
  const api = (p: string) => `/api/orgs/${org.id}${p}`;
  const issues = (ref: string, rest = '') => api(`/issues/${encodeURIComponent(ref)}${rest}`);
  const mk = async (projectId: string, title = uniq('ref')): Promise<Issue> => {
    const r = await org.owner.http.post(api('/issues')).send({ title, projectId }).expect(201);
    return { id: r.body.issue.id, number: r.body.issue.number };
  };
  /** The reference forms the routes must take for an issue of P (its number is unique in the organization). */
  const forms = (i: Issue) => [
    i.id,
    `${P.key}-${i.number}`,
    `${P.key.toLowerCase()}-${i.number}`,
    `#${i.number}`,
    `${i.number}`,
    `TSK-${i.number}`,
    `${org.prefix}-${i.number}`,
  ];
  const ok = (res: Response, status: number, what: string) => {
    if (res.status !== status) throw new Error(`${what} -> ${res.status} ${res.text.slice(0, 300)}`);
    return res.body;
  };

  beforeAll(async () => {
    t = await startTestApp();
    org = await newOrg(t);
    guest = await newUser(t, 'guest');
    const guestId = await addMember(t, org, guest, 'guest');
    P = await newProject(t, org);
    Q = await newProject(t, org);
    H = await newProject(t, org);
    await grant(org, P.id, guestId, 'edit');
    await grant(org, Q.id, guestId, 'edit');
    await mk(P.id, 'p one');
    await mk(Q.id, 'q one');
    await t.db.query('UPDATE projects SET issue_seq = 500 WHERE org_id = $1 AND id = $2', [org.id, H.id]);
    hidden = await mk(H.id, 'hidden title');
    expect(hidden.number).toBe(501);
    label = ok(await org.owner.http.post(api('/labels')).send({ name: uniq('lbl') }), 201, 'label').label;
    initiative = ok(await org.owner.http.post(api('/initiatives')).send({ title: uniq('ini'), project_id: P.id }), 201, 'initiative').initiative;
    const cols = ok(await org.owner.http.get(api(`/projects/${P.id}/board-columns`)), 200, 'columns').columns as Array<{ id: string; key: string }>;
    columns = { todo: cols.find((c) => c.key === 'todo')!.id, done: cols.find((c) => c.key === 'done')!.id };
  });
  afterAll(() => t.close());

  it('PATCH /issues/{ref} updates the issue named by every form', async () => {
    const i = await mk(P.id);
    for (const ref of forms(i)) {
      const body = ok(await org.owner.http.patch(issues(ref)).send({ title: `t ${ref}` }), 200, `PATCH ${ref}`);
      expect(body.issue).toMatchObject({ id: i.id, title: `t ${ref}` });
    }
  });

  it('DELETE /issues/{ref} and the archive routes take every form', async () => {
    const count = forms({ id: '', number: 0 }).length;
    for (let k = 0; k < count; k++) {
      const i = await mk(P.id);
      const r = forms(i)[k];
      expect(ok(await org.owner.http.post(issues(r, '/archive')), 200, `archive ${r}`).issue).toMatchObject({ id: i.id, archived_at: expect.any(String) });
      expect(ok(await org.owner.http.delete(issues(r, '/archive')), 200, `unarchive ${r}`).issue).toMatchObject({ id: i.id, archived_at: null });
      expect(ok(await org.owner.http.delete(issues(r)), 200, `delete ${r}`)).toEqual({ success: true });
      await org.owner.http.get(api(`/issues/${i.id}`)).expect(404);
    }
  });

  it('comments: list, create, read, edit and delete through every form', async () => {
    const i = await mk(P.id);
    for (const ref of forms(i)) {
      const c = ok(await org.owner.http.post(issues(ref, '/comments')).send({ body: `c ${ref}` }), 201, `POST comment ${ref}`).comment;
      expect(c.issue_id).toBe(i.id);
      expect(ok(await org.owner.http.get(issues(ref, '/comments')), 200, `list ${ref}`).comments.map((x: { id: string }) => x.id)).toContain(c.id);
      expect(ok(await org.owner.http.get(issues(ref, `/comments/${c.id}`)), 200, `GET comment ${ref}`).comment.id).toBe(c.id);
      expect(ok(await org.owner.http.patch(issues(ref, `/comments/${c.id}`)).send({ body: 'edited' }), 200, `PATCH comment ${ref}`).comment.body).toContain(
        'edited',
      );
      expect(ok(await org.owner.http.delete(issues(ref, `/comments/${c.id}`)), 200, `DELETE comment ${ref}`)).toEqual({ success: true });
    }
  });

  it('dependencies: add, list, change the release column and remove through every form', async () => {
    const i = await mk(P.id);
    for (const ref of forms(i)) {
      const blocker = await mk(P.id);
      const d = ok(await org.owner.http.post(issues(ref, '/dependencies')).send({ blockedByIssueId: blocker.id }), 201, `POST dep ${ref}`).dependency;
      expect(d).toMatchObject({ blocked_issue_id: i.id, blocking_issue_id: blocker.id });
      const lists = ok(await org.owner.http.get(issues(ref, '/dependencies')), 200, `GET deps ${ref}`);
      expect(lists.blockedBy.map((x: { id: string }) => x.id)).toContain(d.id);
      const chain = ok(await org.owner.http.get(issues(ref, '/dependencies?view=chain')), 200, `chain ${ref}`);
      expect(chain.root_issue_id).toBe(i.id);
      const moved = ok(await org.owner.http.patch(issues(ref, `/dependencies/${d.id}`)).send({ releaseColumnId: columns.todo }), 200, `PATCH dep ${ref}`);
      expect(moved.dependency.releaseColumnId).toBe(columns.todo);
      expect(ok(await org.owner.http.delete(issues(ref, `/dependencies/${d.id}`)), 200, `DELETE dep ${ref}`)).toEqual({ success: true });
    }
  });

  it('attachments: upload, list, read and delete through every form', async () => {
    const i = await mk(P.id);
    for (const ref of forms(i)) {
      const a = ok(await org.owner.http.post(issues(ref, '/attachments')).attach('file', Buffer.from(`data ${ref}`), 'a.txt'), 201, `upload ${ref}`).attachment;
      expect(ok(await org.owner.http.get(issues(ref, '/attachments')), 200, `list ${ref}`).attachments.map((x: { id: string }) => x.id)).toContain(a.id);
      const content = await org.owner.http.get(issues(ref, `/attachments/${a.id}/content`)).buffer(true);
      expect(content.status).toBe(200);
      expect(Buffer.isBuffer(content.body) ? content.body.toString() : content.text).toBe(`data ${ref}`);
      expect(ok(await org.owner.http.delete(issues(ref, `/attachments/${a.id}`)), 200, `DELETE attachment ${ref}`)).toMatchObject({ success: true });
    }
  });

  it('activity, subtasks, labels and initiatives through every form', async () => {
    const i = await mk(P.id);
    for (const ref of forms(i)) {
      const activity = ok(await org.owner.http.get(issues(ref, '/activity')), 200, `activity ${ref}`);
      expect(JSON.stringify(activity)).toContain(i.id);
      const s = ok(await org.owner.http.post(issues(ref, '/subtasks')).send({ title: `s ${ref}` }), 201, `POST subtask ${ref}`).subtask;
      expect(s.parent_id).toBe(i.id);
      expect(ok(await org.owner.http.get(issues(ref, '/subtasks')), 200, `subtasks ${ref}`).subtasks.map((x: { id: string }) => x.id)).toContain(s.id);
      expect(ok(await org.owner.http.patch(issues(ref, `/subtasks/${s.id}`)).send({ title: 'renamed' }), 200, `PATCH subtask ${ref}`).subtask.title).toBe(
        'renamed',
      );
      ok(await org.owner.http.delete(issues(ref, `/subtasks/${s.id}`)), 200, `DELETE subtask ${ref}`);
      ok(await org.owner.http.post(issues(ref, '/labels')).send({ labelId: label.id }), 201, `POST label ${ref}`);
      expect(JSON.stringify(ok(await org.owner.http.get(issues(ref, '/labels')), 200, `labels ${ref}`))).toContain(label.id);
      ok(await org.owner.http.delete(issues(ref, `/labels/${label.id}`)), 200, `DELETE label ${ref}`);
      ok(await org.owner.http.post(issues(ref, '/initiatives')).send({ initiative_id: initiative.id }), 201, `POST initiative ${ref}`);
      expect(ok(await org.owner.http.get(issues(ref, '/initiatives')), 200, `initiatives ${ref}`).initiatives.map((x: { id: string }) => x.id)).toEqual([
        initiative.id,
      ]);
      ok(await org.owner.http.delete(issues(ref, `/initiatives/${initiative.id}`)), 200, `DELETE initiative ${ref}`);
    }
  });

  /** Every issue-addressed route, as [method, path of a reference, body?]. */
  const routes = (): Array<[string, (ref: string) => string, object?]> => {
    const x = randomUUID();
    return [
      ['patch', (r) => issues(r), { title: 'x' }],
      ['delete', (r) => issues(r)],
      ['post', (r) => issues(r, '/archive')],
      ['delete', (r) => issues(r, '/archive')],
      ['get', (r) => issues(r, '/comments')],
      ['post', (r) => issues(r, '/comments'), { body: 'x' }],
      ['get', (r) => issues(r, `/comments/${x}`)],
      ['patch', (r) => issues(r, `/comments/${x}`), { body: 'x' }],
      ['delete', (r) => issues(r, `/comments/${x}`)],
      ['get', (r) => issues(r, '/dependencies')],
      ['post', (r) => issues(r, '/dependencies'), { blockedByIssueId: x }],
      ['patch', (r) => issues(r, `/dependencies/${x}`), { releaseColumnId: x }],
      ['delete', (r) => issues(r, `/dependencies/${x}`)],
      ['get', (r) => issues(r, '/attachments')],
      ['post', (r) => issues(r, '/attachments')],
      ['get', (r) => issues(r, `/attachments/${x}/content`)],
      ['delete', (r) => issues(r, `/attachments/${x}`)],
      ['get', (r) => issues(r, '/activity')],
      ['get', (r) => issues(r, '/subtasks')],
      ['post', (r) => issues(r, '/subtasks'), { title: 'x' }],
      ['patch', (r) => issues(r, `/subtasks/${x}`), { title: 'x' }],
      ['delete', (r) => issues(r, `/subtasks/${x}`)],
      ['get', (r) => issues(r, '/labels')],
      ['post', (r) => issues(r, '/labels'), { labelId: x }],
      ['delete', (r) => issues(r, `/labels/${x}`)],
      ['get', (r) => issues(r, '/initiatives')],
      ['post', (r) => issues(r, '/initiatives'), { initiative_id: x }],
      ['delete', (r) => issues(r, `/initiatives/${x}`)],
    ];
  };
  const send = (who: TestUser, method: string, path: string, body?: object) => {
    const req = (who.http as unknown as Record<string, (p: string) => ReturnType<TestUser['http']['get']>>)[method](path);
    return body ? req.send(body) : req;
  };

  it('every route: 400 invalid_reference, 404 reference_not_found, 409 ambiguous_reference (nothing changes)', async () => {
    const before = await t.db.query('SELECT count(*)::int AS n FROM issues WHERE org_id = $1', [org.id]);
    for (const [method, path, body] of routes()) {
      for (const ref of ['!!!', 'not-a-ref', `${P.key}-x1`, '1.5']) {
        const res = await send(org.owner, method, path(ref), body);
        if (res.status !== 400) throw new Error(`${method} ${path(ref)} -> ${res.status} ${res.text.slice(0, 200)}`);
        expect(res.body).toMatchObject({ code: 'invalid_reference', accepted_forms: expect.any(Array) });
      }
      for (const ref of [`${P.key}-999999`, '#999999', randomUUID(), 'NOPE-1', '0']) {
        const res = await send(org.owner, method, path(ref), body);
        if (res.status !== 404) throw new Error(`${method} ${path(ref)} -> ${res.status} ${res.text.slice(0, 200)}`);
        // a UUID keeps the UUID-addressed routes' own 404 (interface.md: "Other mutation routes are UUID-addressed")
        expect(res.body).toMatchObject({ code: ref.includes('-') && ref.length === 36 ? 'not_found' : 'reference_not_found' });
      }
      for (const ref of ['#1', '1', 'TSK-1']) {
        const res = await send(org.owner, method, path(ref), body);
        if (res.status !== 409) throw new Error(`${method} ${path(ref)} -> ${res.status} ${res.text.slice(0, 200)}`);
        expect(res.body).toMatchObject({ code: 'ambiguous_reference', reference: ref });
        expect(res.body.candidates).toHaveLength(2);
      }
    }
    const after = await t.db.query('SELECT count(*)::int AS n FROM issues WHERE org_id = $1', [org.id]);
    expect(after[0].n).toBe(before[0].n);
  });

  it('a reference error comes before the body media type check (415), as the interceptors they replaced ran', async () => {
    const path = issues('!!!', '/comments');
    const bad = await org.owner.http.post(path).set('content-type', 'text/plain').send('not json');
    expect([bad.status, bad.body.code]).toEqual([400, 'invalid_reference']);
    const unknown = await org.owner.http
      .post(issues(`${P.key}-999999`, '/comments'))
      .set('content-type', 'text/plain')
      .send('not json');
    expect([unknown.status, unknown.body.code]).toEqual([404, 'reference_not_found']);
    // a readable issue: then the body's type is refused
    const refused = await org.owner.http
      .post(issues(`${P.key}-1`, '/comments'))
      .set('content-type', 'text/plain')
      .send('not json');
    expect([refused.status, refused.body.code]).toEqual([415, 'unsupported_media_type']);
  });

  it('concealment: an issue the caller cannot read is 404 on every route, whatever the form (reference_not_found; a UUID: not_found)', async () => {
    for (const [method, path, body] of routes()) {
      for (const ref of [hidden.id, `${H.key}-${hidden.number}`, `#${hidden.number}`, `${hidden.number}`, `TSK-${hidden.number}`]) {
        const res = await send(guest, method, path(ref), body);
        if (res.status !== 404) throw new Error(`${method} ${path(ref)} -> ${res.status} ${res.text.slice(0, 200)}`);
        expect(res.body.code).toBe(ref === hidden.id ? 'not_found' : 'reference_not_found');
        expect(res.text).not.toContain('hidden title');
        if (ref !== hidden.id) expect(res.text).not.toContain(hidden.id); // the error echoes only the reference sent
      }
      // Candidates are filtered by access before uniqueness: the guest reads only P and Q's #1.
      const amb = await send(guest, method, path('#1'), body);
      expect(amb.status).toBe(409);
      expect(amb.body.candidates).toHaveLength(2);
    }
    // another organization's member: 404 for every form (the organization itself is concealed)
    const outsider = await newOrg(t);
    await outsider.owner.http
      .patch(issues(`${P.key}-1`))
      .send({ title: 'x' })
      .expect(404);
    await outsider.owner.http.get(issues('#1', '/comments')).expect(404);
    // the guest's own readable issue still works by key (write access on P)
    const mine = await mk(P.id);
    ok(await guest.http.post(issues(`${P.key}-${mine.number}`, '/comments')).send({ body: 'guest note' }), 201, 'guest comment');
  });

  it('401 without credentials comes before any reference work', async () => {
    await t.http().patch(issues('!!!')).send({ title: 'x' }).expect(401);
    await t.http().get(issues('#1', '/comments')).expect(401);
  });
});
