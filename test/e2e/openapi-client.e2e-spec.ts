import { startTestApp, type TestApp } from '../support/app';

/**
 * The typed client driver (test/client/driver.ts) against a running test app: the calls that
 * type-check against the generated client (`npm run openapi:client`) also work, and every response
 * they get matches the document (the conformance hook of startTestApp).
 *
 * test/client is its own TypeScript project: its types are generated from the dumped document at
 * CI time (gitignored), so this file loads the driver by a computed specifier that the root
 * project does not follow, and Jest does not type-check it (jest.config.mjs diagnostics.exclude).
 */
interface Driver {
  runMainFlows(baseUrl: string): Promise<{
    orgId: string;
    projectId: string;
    agentId: string;
    agentKey: string;
    issueId: string;
    commentId: string;
    listedIssueIds: string[];
    updated: { title: string; status: string };
  }>;
}
const DRIVER = ['..', 'client', 'driver'].join('/');

describe('typed OpenAPI client (openapi-fetch)', () => {
  let t: TestApp;
  let baseUrl: string;
  beforeAll(async () => {
    t = await startTestApp();
    await t.app.listen(0, '127.0.0.1'); // port 0: the OS picks a free one, held by this server
    baseUrl = await t.app.getUrl();
  });
  afterAll(() => t?.close());

  it('signs up, creates an organization, a project and an agent key; the agent creates, comments and updates an issue; the list shows it', async () => {
    const driver = (await import(DRIVER)) as Driver;
    const r = await driver.runMainFlows(baseUrl);
    expect(r.listedIssueIds).toEqual([r.issueId]);
    expect(r.updated).toEqual({ title: 'Written and started by the typed client', status: 'in_progress' });

    // what the typed calls did is there for a plain HTTP client too
    const { body } = await t.http().get(`/api/orgs/${r.orgId}/issues/${r.issueId}/comments`).set('authorization', `Bearer ${r.agentKey}`).expect(200);
    expect(body.comments.map((c: { id: string }) => c.id)).toEqual([r.commentId]);
  });
});
