import { randomUUID } from 'node:crypto';
import { issueSearchStatement, SEARCH_MATCH_CAP } from '../../src/modules/issue-list/issue-list.repository';
import { likePattern } from '../../src/modules/issue-list/list-params';
import { startTestApp, type TestApp } from '../support/app';
import { addMember, newOrg, newProject, newUser, type TestOrg, type TestUser } from '../support/factories';
import { grant, insertIssue } from '../support/issues';

type Issue = { id: string; number: number; title: string };

/**
 * GET /api/orgs/:id/issues/search: title, description and comment matches (full-text, prefix and
 * title infix), the issue reference forms first, ranking, the list's visibility, items, paging and
 * shapes, archived issues and deleted comments, bad input, the route beside /issues/:issueId, and
 * the indexes the statement uses.
 */
describe('issue search', () => {
  let t: TestApp;
  let org: TestOrg;
  let other: TestOrg;
  let member: TestUser;
  let guest: TestUser;
  let outsider: TestUser;
  let proj: { id: string; key: string; name: string };
  let hidden: { id: string; key: string; name: string };
  const I: Record<string, Issue> = {};
  const url = (q: string, extra = '') => `/api/orgs/${org.id}/issues/search?q=${encodeURIComponent(q)}${extra}`;
  const ids = (body: any): string[] => (body.issues ?? body.items).map((i: any) => i.id);
  const search = async (who: TestUser, q: string, extra = '') => (await who.http.get(url(q, extra)).expect(200)).body;
  const comment = async (issueId: string, body: string) =>
    (await org.owner.http.post(`/api/orgs/${org.id}/issues/${issueId}/comments`).send({ body }).expect(201)).body.comment.id as string;
  const create = async (body: Record<string, unknown>): Promise<Issue> =>
    (await org.owner.http.post(`/api/orgs/${org.id}/issues`).send(body).expect(201)).body.issue;

  beforeAll(async () => {
    t = await startTestApp();
    org = await newOrg(t);
    other = await newOrg(t);
    member = await newUser(t, 'member');
    guest = await newUser(t, 'guest');
    outsider = await newUser(t, 'outsider');
    await addMember(t, org, member, 'member');
    const guestId = await addMember(t, org, guest, 'guest');
    proj = await newProject(t, org);
    hidden = await newProject(t, org);
    await grant(org, proj.id, guestId, 'view');

    // Through the API: the write path keeps the search columns in step.
    I.title = await create({ title: 'Zephyr authentication flow', projectId: proj.id });
    I.desc = await create({ title: 'Plain one', description: 'The quokka lives in the description', projectId: proj.id });
    I.commented = await create({ title: 'Plain two', projectId: proj.id });
    await comment(I.commented.id, 'A <strong>walrus</strong> was seen, see <a href="https://example.com/x">the report</a>');
    // ranking: the same word in a title, a description, a comment only
    I.rankComment = await create({ title: 'Rank three', projectId: proj.id });
    await comment(I.rankComment.id, 'kestrel kestrel kestrel');
    I.rankDesc = await create({ title: 'Rank two', description: 'one kestrel here', projectId: proj.id });
    I.rankTitle = await create({ title: 'Kestrel in the title', projectId: proj.id });
    // visibility
    I.hidden = await create({ title: 'Hidden marmot', projectId: hidden.id });
    I.hiddenCommented = await create({ title: 'Hidden plain', projectId: hidden.id });
    await comment(I.hiddenCommented.id, 'an ocelot note');
    I.projectless = await create({ title: 'Projectless marmot' });
    I.visibleMarmot = await create({ title: 'Visible marmot', projectId: proj.id });
    I.otherOrg = (await other.owner.http.post(`/api/orgs/${other.id}/issues`).send({ title: 'Foreign marmot' }).expect(201)).body.issue;
    // archived
    I.archived = await create({ title: 'Archived narwhal', projectId: proj.id });
    await org.owner.http.post(`/api/orgs/${org.id}/issues/${I.archived.id}/archive`).expect(200);
    // paging: 30 matches
    for (let k = 0; k < 30; k++) await insertIssue(t, org.id, proj.id, { title: `Pager lemur ${k}` });
  });
  afterAll(() => t?.close());

  describe('matches', () => {
    it('finds a word of the title, of the description, of a comment (visible text only, not HTML markup)', async () => {
      expect(ids(await search(org.owner, 'zephyr'))).toEqual([I.title.id]);
      expect(ids(await search(org.owner, 'QUOKKA'))).toEqual([I.desc.id]);
      expect(ids(await search(org.owner, 'walrus'))).toEqual([I.commented.id]);
      expect(ids(await search(org.owner, 'report'))).toEqual([I.commented.id]);
      for (const markup of ['strong', 'href', 'example.com']) expect([markup, ids(await search(org.owner, markup))]).toEqual([markup, []]);
    });

    it('every word is required, each matched as a prefix; short queries and infixes of titles match too', async () => {
      expect(ids(await search(org.owner, 'auth'))).toEqual([I.title.id]);
      expect(ids(await search(org.owner, 'zephyr auth'))).toEqual([I.title.id]);
      expect(ids(await search(org.owner, 'zephyr quokka'))).toEqual([]);
      expect(ids(await search(org.owner, 'ze'))).toEqual([I.title.id]);
      // an infix (no word starts with it): the title trigram index
      expect(ids(await search(org.owner, 'thentica'))).toEqual([I.title.id]);
      expect(ids(await search(org.owner, 'uokka'))).toEqual([]); // infixes: titles only
    });

    it('keeps in step with writes: an edited title, a description, an edited and a deleted comment', async () => {
      const i = await create({ title: 'Before ibis', projectId: proj.id });
      expect(ids(await search(org.owner, 'ibis'))).toEqual([i.id]);
      await org.owner.http.patch(`/api/orgs/${org.id}/issues/${i.id}`).send({ title: 'After heron', description: 'with a gecko' }).expect(200);
      expect(ids(await search(org.owner, 'ibis'))).toEqual([]);
      expect(ids(await search(org.owner, 'heron'))).toEqual([i.id]);
      expect(ids(await search(org.owner, 'gecko'))).toEqual([i.id]);
      expect(ids(await search(org.owner, 'tapir'))).toEqual([]); // kept, then a new comment must show
      const c = await comment(i.id, 'a tapir');
      expect(ids(await search(org.owner, 'tapir'))).toEqual([i.id]);
      await org.owner.http.patch(`/api/orgs/${org.id}/issues/${i.id}/comments/${c}`).send({ body: 'a dingo' }).expect(200);
      expect(ids(await search(org.owner, 'tapir'))).toEqual([]);
      expect(ids(await search(org.owner, 'dingo'))).toEqual([i.id]);
      await org.owner.http.delete(`/api/orgs/${org.id}/issues/${i.id}/comments/${c}`).expect(200);
      expect(ids(await search(org.owner, 'dingo'))).toEqual([]);
    });

    it('ranks title matches above description matches above comment-only matches', async () => {
      expect(ids(await search(org.owner, 'kestrel'))).toEqual([I.rankTitle.id, I.rankDesc.id, I.rankComment.id]);
    });
  });

  describe('issue references', () => {
    it('KEY-n (any case) and a UUID put the issue first', async () => {
      const target = I.desc;
      const forms = [`${proj.key}-${target.number}`, `${proj.key.toLowerCase()}-${target.number}`, target.id, target.id.toUpperCase()];
      for (const q of forms) expect([q, ids(await search(org.owner, q))[0]]).toEqual([q, target.id]);
      expect(ids(await search(org.owner, target.id))).toEqual([target.id]);
    });

    it('n, #n, ORG_PREFIX-n and TSK-n name every readable issue with that number (each project and projectless), before text matches', async () => {
      const n = I.title.number;
      const titled = await create({ title: `Release ${n} notes`, projectId: hidden.id });
      const withNumber = (await t.db.query('SELECT id FROM issues WHERE org_id = $1 AND number = $2 AND archived_at IS NULL', [org.id, n])).map(
        (r: { id: string }) => r.id,
      );
      expect(withNumber.length).toBeGreaterThan(1);
      for (const q of [String(n), `#${n}`, `${org.prefix}-${n}`, `TSK-${n}`]) {
        expect([
          q,
          ids(await search(org.owner, q))
            .slice(0, withNumber.length)
            .sort(),
        ]).toEqual([q, [...withNumber].sort()]);
      }
      // `12` is also a word: the issue whose title holds it follows (unless it has that number itself)
      if (titled.number !== n) expect(ids(await search(org.owner, String(n)))).toContain(titled.id);
      // the guest reads one project only: only its issue with that number
      expect(ids(await search(guest, `#${n}`))[0]).toBe(I.title.id);
      expect(ids(await search(guest, `#${n}`))).not.toContain(titled.id);
    });

    it('a reference to an unreadable, unknown or archived issue puts nothing first', async () => {
      expect(ids(await search(guest, `${hidden.key}-${I.hidden.number}`))).toEqual([]);
      expect(ids(await search(guest, I.hidden.id))).toEqual([]);
      expect(ids(await search(org.owner, `${proj.key}-999999`))).toEqual([]);
      expect(ids(await search(org.owner, randomUUID()))).toEqual([]);
      expect(ids(await search(org.owner, I.archived.id))).toEqual([]);
      expect(ids(await search(org.owner, I.archived.id, '&includeArchived=true'))).toEqual([I.archived.id]);
    });
  });

  describe('visibility', () => {
    it('as the list: readable projects, projectless issues for non-guests, never another organization', async () => {
      const all = [I.hidden.id, I.projectless.id, I.visibleMarmot.id].sort();
      expect(ids(await search(org.owner, 'marmot')).sort()).toEqual(all);
      expect(ids(await search(member, 'marmot')).sort()).toEqual(all);
      expect(ids(await search(guest, 'marmot'))).toEqual([I.visibleMarmot.id]);
      const foreign = (await other.owner.http.get(`/api/orgs/${other.id}/issues/search?q=marmot`).expect(200)).body;
      expect(ids(foreign)).toEqual([I.otherOrg.id]);
    });

    it('a comment on an unreadable issue does not reveal the issue', async () => {
      expect(ids(await search(org.owner, 'ocelot'))).toEqual([I.hiddenCommented.id]);
      expect(await search(guest, 'ocelot')).toEqual({ issues: [], total: 0, limit: 25, offset: 0 });
    });

    it('a guest without readable projects gets an empty list; non-members 404; no credentials 401', async () => {
      const lonely = await newUser(t, 'lonely');
      await addMember(t, org, lonely, 'guest');
      expect(await search(lonely, 'marmot')).toEqual({ issues: [], total: 0, limit: 25, offset: 0 });
      const res = await outsider.http.get(url('marmot')).expect(404);
      expect(res.body).toMatchObject({ code: expect.any(String) });
      await t.http().get(url('marmot')).expect(401);
    });

    it('archived issues only with includeArchived=true (as the list)', async () => {
      expect(ids(await search(org.owner, 'narwhal'))).toEqual([]);
      expect(ids(await search(org.owner, 'narwhal', '&includeArchived=true'))).toEqual([I.archived.id]);
      expect(ids(await search(org.owner, 'narwhal', '&include_archived=1'))).toEqual([I.archived.id]);
    });
  });

  describe('items, paging and shapes', () => {
    it('items are the full list items', async () => {
      const found = (await search(org.owner, 'zephyr')).issues[0];
      const listed = (await org.owner.http.get(`/api/orgs/${org.id}/issues?q=Zephyr`).expect(200)).body.issues[0];
      expect(found).toEqual(listed);
      expect(found.identifier).toBe(`${proj.key}-${I.title.number}`);
    });

    it('legacy shape by default, the envelope with shape=envelope or response_shape=cli; limit, offset, total', async () => {
      const first = await search(org.owner, 'lemur', '&limit=20');
      expect(first).toMatchObject({ total: 30, limit: 20, offset: 0 });
      expect(first.issues).toHaveLength(20);
      const second = await search(org.owner, 'lemur', '&limit=20&offset=20');
      expect(second.issues).toHaveLength(10);
      expect(new Set([...ids(first), ...ids(second)]).size).toBe(30);
      expect(await search(org.owner, 'lemur', '&offset=40')).toEqual({ issues: [], total: 30, limit: 25, offset: 40 });
      const env = await search(org.owner, 'lemur', '&shape=envelope&limit=10');
      expect(env).toMatchObject({ resource: 'issues', total: 30, limit: 10, offset: 0, nextOffset: 10, truncated: true });
      expect(env.items).toHaveLength(10);
      expect(Object.keys(await search(org.owner, 'lemur', '&response_shape=cli'))).toEqual(
        expect.arrayContaining(['resource', 'items', 'total', 'limit', 'offset', 'nextOffset', 'truncated', 'hint']),
      );
      expect((await search(org.owner, 'lemur', '&limit=1000')).limit).toBe(100);
    });
  });

  describe('bad input is 400 with { error, code }', () => {
    it.each([
      ['no q', ''],
      ['empty q', 'q='],
      ['blank q', 'q=%20%20%20'],
      ['q over 200 characters', `q=${'a'.repeat(201)}`],
      ['more than 20 words', `q=${Array.from({ length: 21 }, (_, k) => `w${k}`).join('+')}`],
      ['NUL', 'q=a%00b'],
      ['a control character', 'q=a%01b'],
      ['malformed UTF-8', 'q=caf%C3%A9%FF'],
      ['a truncated UTF-8 sequence', 'q=%E2%82'],
      ['no letter or digit', 'q=%21%21%21'],
      ['q twice', 'q=a&q=b'],
      ['bracketed key', 'q[]=a'],
      ['bad limit', 'q=a&limit=abc'],
      ['bad shape', 'q=a&shape=weird'],
      ['bad includeArchived', 'q=a&includeArchived=maybe'],
    ])('%s', async (_name, qs) => {
      const res = await org.owner.http.get(`/api/orgs/${org.id}/issues/search?${qs}`).expect(400);
      expect(res.body).toEqual({ error: expect.any(String), code: expect.any(String) });
    });

    it('accepts text that only looks like markup or operators, and a literal percent sign', async () => {
      for (const q of ["zephyr & | ! ( ) : * ' \\", '<b>zephyr</b>', '"zephyr"']) expect([q, ids(await search(org.owner, q))]).toEqual([q, [I.title.id]]);
      await org.owner.http.get(url('100%')).expect(200);
      await org.owner.http.get(url('é')).expect(200);
    });
  });

  it('is its own route beside GET /issues/:issueId (which still resolves references)', async () => {
    const res = await org.owner.http.get(`/api/orgs/${org.id}/issues/search`).expect(400);
    expect(res.body.error).toMatch(/q is required/);
    expect((await org.owner.http.get(`/api/orgs/${org.id}/issues/${proj.key}-${I.title.number}`).expect(200)).body.issue.id).toBe(I.title.id);
  });

  it('is in the OpenAPI document', async () => {
    const doc = (await t.http().get('/api/openapi.json').expect(200)).body;
    const op = doc.paths['/api/orgs/{id}/issues/search']?.get;
    expect(op).toBeDefined();
    expect(op.parameters.find((p: any) => p.name === 'q')).toMatchObject({ in: 'query', required: true });
    // the legacy list or its envelope (`shape=envelope`), as every list with a `shape` parameter
    expect(op.responses['200'].content['application/json'].schema).toEqual({
      oneOf: [{ $ref: '#/components/schemas/IssueListResponse' }, { $ref: '#/components/schemas/IssueListResponseEnvelope' }],
    });
    expect(op.responses['400']).toBeDefined();
  });

  /**
   * The statement on a populated organization (20,000 issues, 20,000 comments, statistics
   * gathered): the plan reads the GIN indexes (full text of issues and comments, title trigrams),
   * never a sequential scan of issues or comments.
   */
  describe('index use', () => {
    let big: TestOrg;
    const N = 20_000;
    const W = 1000;
    const words = Array.from({ length: W }, (_, k) => `w${k}x${randomUUID().slice(0, 4)}`);

    beforeAll(async () => {
      big = await newOrg(t);
      const p = await newProject(t, big);
      await t.db.query(
        `INSERT INTO issues (org_id, project_id, number, title, description, status, priority)
         SELECT $1, $2, g, 'Item ' || g || ' ' || ($3::text[])[g % $5 + 1], 'Notes ' || md5(g::text), 'todo', 2 FROM generate_series(1, $4::int) g`,
        [big.id, p.id, words, N, W],
      );
      await t.db.query(
        `INSERT INTO comments (org_id, issue_id, author_type, body)
         SELECT i.org_id, i.id, 'automation', '<p>' || ($2::text[])[(i.number * 7) % $3 + 1] || ' ' || md5(i.id::text) || '</p>' FROM issues i WHERE i.org_id = $1`,
        [big.id, words, W],
      );
      await t.db.query('ANALYZE issues');
      await t.db.query('ANALYZE comments');
    }, 180_000);

    /** Every plan node with its relation and index. */
    const nodes = (plan: any): Array<{ type: string; relation?: string; index?: string }> => [
      { type: plan['Node Type'], relation: plan['Relation Name'], index: plan['Index Name'] },
      ...(plan.Plans ?? []).flatMap(nodes),
    ];
    const explain = async (q: string, readable: 'all' | string[]) => {
      const f = { q, titlePattern: likePattern(q), exactIds: [], includeArchived: false, page: { limit: 25, offset: 0, envelope: false } };
      const { text, values } = issueSearchStatement(big.id, f, readable);
      const rows = await t.db.query(`EXPLAIN (FORMAT JSON) ${text}`, values);
      return nodes(rows[0]['QUERY PLAN'][0].Plan);
    };

    it.each([
      ['an organization-wide reader', 'all' as const],
      ['a reader of some projects', 'some' as const],
    ])('for %s: bitmap scans of issues_search_idx, comments_search_idx and issues_title_trgm_idx; no sequential scan', async (_who, scope) => {
      const readable = scope === 'all' ? 'all' : [(await t.db.query('SELECT id FROM projects WHERE org_id = $1', [big.id]))[0].id];
      const plan = await explain(words[42], readable);
      const indexes = plan.filter((n) => n.type === 'Bitmap Index Scan').map((n) => n.index);
      expect(indexes).toEqual(expect.arrayContaining(['issues_search_idx', 'comments_search_idx', 'issues_title_trgm_idx']));
      expect(plan.filter((n) => n.type === 'Seq Scan' && (n.relation === 'issues' || n.relation === 'comments'))).toEqual([]);
      // and the statement finds what the plan promises: 1 in 1,000 titles and 1 in 1,000 comments
      const { text, values } = issueSearchStatement(
        big.id,
        { q: words[42], titlePattern: likePattern(words[42]), exactIds: [], includeArchived: false, page: { limit: 25, offset: 0, envelope: false } },
        readable,
      );
      const rows: Array<{ search_total: number }> = await t.db.query(text, values);
      expect(rows[0].search_total).toBe(2 * (N / W));
    });
    it('a word of every issue reads at most SEARCH_MATCH_CAP matches of each kind (here: issue text and title substrings)', async () => {
      const f = { q: 'item', titlePattern: likePattern('item'), exactIds: [], includeArchived: false, page: { limit: 25, offset: 0, envelope: false } };
      const { text, values } = issueSearchStatement(big.id, f, 'all');
      const rows: Array<{ id: string; search_total: number }> = await t.db.query(text, values);
      expect(rows).toHaveLength(25);
      expect(rows[0].search_total).toBeGreaterThanOrEqual(SEARCH_MATCH_CAP);
      expect(rows[0].search_total).toBeLessThanOrEqual(2 * SEARCH_MATCH_CAP);
    });
  });
});
