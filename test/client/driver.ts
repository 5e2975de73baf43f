import { randomUUID } from 'node:crypto';
import createClient, { type Client } from 'openapi-fetch';
import type { paths } from './generated/schema';

/**
 * The main flows through a client typed by openapi-typescript from the OpenAPI document
 * (`npm run openapi:client` generates `generated/schema.d.ts` from the dumped document and
 * type-checks this file; test/e2e/openapi-client.e2e-spec.ts runs it against a test app). A change
 * of the document that breaks these calls fails the type check, not a user.
 */

export type ApiClient = Client<paths>;

interface Answer<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** The typed body of a successful call; anything else throws with the status and error body. */
function expectData<T>(what: string, answer: Answer<T>): T {
  if (answer.data === undefined) throw new Error(`${what}: HTTP ${answer.response.status} ${JSON.stringify(answer.error)}`);
  return answer.data;
}

/** A client for a human: keeps the session cookie the service sets at signup/login. */
export function humanClient(baseUrl: string): ApiClient {
  const client = createClient<paths>({ baseUrl });
  let cookie: string | undefined;
  client.use({
    onRequest({ request }) {
      if (cookie) request.headers.set('cookie', cookie);
      return request;
    },
    onResponse({ response }) {
      const sid = response.headers.getSetCookie().find((c) => c.startsWith('sid='));
      if (sid) cookie = sid.split(';')[0];
      return response;
    },
  });
  return client;
}

/** A client for an agent: `Authorization: Bearer sk_service_…`. */
export function agentClient(baseUrl: string, apiKey: string): ApiClient {
  return createClient<paths>({ baseUrl, headers: { authorization: `Bearer ${apiKey}` } });
}

export interface FlowResult {
  orgId: string;
  projectId: string;
  agentId: string;
  /** The agent's API key (`sk_service_…`). */
  agentKey: string;
  issueId: string;
  commentId: string;
  /** Issue ids of the project's list, as the human sees it after the agent's work. */
  listedIssueIds: string[];
  /** The issue after the agent's PATCH. */
  updated: { title: string; status: string };
}

/**
 * Sign up, create an organization and a project, create an agent scoped to the project (its key),
 * then as the agent create an issue, comment on it and update it; the human lists the issues.
 */
export async function runMainFlows(baseUrl: string): Promise<FlowResult> {
  const human = humanClient(baseUrl);
  const email = `driver-${randomUUID()}@example.com`;
  const { user } = expectData('signup', await human.POST('/api/auth/signup', { body: { email, password: 'typed client password', display_name: 'Driver' } }));
  if (user.email !== email) throw new Error('signup: another account came back');

  const { organization } = expectData('create organization', await human.POST('/api/orgs', { body: { name: 'Typed client org' } }));
  const org = { path: { id: organization.id } };
  const { project } = expectData('create project', await human.POST('/api/orgs/{id}/projects', { params: org, body: { name: 'Typed client project' } }));

  const agent = expectData(
    'create agent',
    await human.POST('/api/orgs/{id}/agents', { params: org, body: { name: 'Typed client agent', projectIds: [project.id] } }),
  );
  const bot = agentClient(baseUrl, agent.apiKey);

  const { issue } = expectData(
    'create issue',
    await bot.POST('/api/orgs/{id}/issues', { params: org, body: { title: 'Written by the typed client', projectId: project.id, priority: 1 } }),
  );
  const issuePath = { path: { id: organization.id, issueId: issue.id } };
  const { comment } = expectData('comment', await bot.POST('/api/orgs/{id}/issues/{issueId}/comments', { params: issuePath, body: { body: 'Started.' } }));

  const patched = expectData(
    'update issue',
    await bot.PATCH('/api/orgs/{id}/issues/{issueId}', {
      params: issuePath,
      body: { status: 'in_progress', title: 'Written and started by the typed client' },
    }),
  );

  const list = expectData('list issues', await human.GET('/api/orgs/{id}/issues', { params: { ...org, query: { projectId: project.id } } }));
  const items = 'issues' in list ? list.issues : list.items;

  return {
    orgId: organization.id,
    projectId: project.id,
    agentId: agent.agent.id,
    agentKey: agent.apiKey,
    issueId: issue.id,
    commentId: comment.id,
    listedIssueIds: items.map((i) => i.id),
    updated: { title: patched.issue.title, status: patched.issue.status },
  };
}
