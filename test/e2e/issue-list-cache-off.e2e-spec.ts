import { uniq } from '../support/factories';
import { startTestApp, type TestApp } from '../support/app';
import { insertIssue, type WorkTrackingWorld, workTrackingWorld } from '../support/issues';

/** READ_CACHE=off: every list page and chain page is computed on every request. */
describe('issue list with READ_CACHE=off', () => {
  let t: TestApp;
  let w: WorkTrackingWorld;

  beforeAll(async () => {
    t = await startTestApp({ READ_CACHE: 'off' });
    w = await workTrackingWorld(t);
  });
  afterAll(() => t.close());

  it('a change that moves no version (triggers off) shows on the very next request', async () => {
    const tag = uniq('nocache');
    const a = await insertIssue(t, w.org.id, w.proj.id, { title: `${tag} original` });
    const titles = async () => (await w.org.owner.http.get(`/api/orgs/${w.org.id}/issues?q=${tag}`).expect(200)).body.issues.map((i: any) => i.title);
    expect(await titles()).toEqual([`${tag} original`]);
    const qr = t.db.createQueryRunner();
    try {
      await qr.query('SET session_replication_role = replica');
      await qr.query('UPDATE issues SET title = $3 WHERE org_id = $1 AND id = $2', [w.org.id, a.id, `${tag} silent`]);
    } finally {
      await qr.query('RESET session_replication_role');
      await qr.release();
    }
    expect(await titles()).toEqual([`${tag} silent`]);
  });
});
