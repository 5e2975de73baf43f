import type { INestApplication } from '@nestjs/common';
import { ModulesContainer } from '@nestjs/core';
import { DocumentBuilder, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { aliasesOf } from '../http/aliases';

import { refineDocument } from './refine';
import { operationId, routeFacts } from './routes';

/**
 * Tag descriptions, in document order. A tag used by a controller must be listed here: the lint
 * (`npm run openapi:lint`, rule `tag-description`) fails otherwise.
 */
const TAGS: Record<string, string> = {
  deployments: 'Deployment-provider (Vercel) connections and the signed inbound deployment callback',
  inbox: 'The private inbound email inbox: signed intake, operator triage and private attachments behind 60-second signed URLs',
  auth: 'Accounts, web sessions (cookie `sid`) and the caller (`/api/auth/me`)',
  organizations: "Organizations (tenants): create, rename, delete, billing and the caller's profile in one",
  members: 'Members of an organization: humans and agents with a role (`owner`, `admin`, `member`, `guest`); the directory; avatars',
  invitations: 'Invitations to an organization: owners and admins invite an email with a role; the account with that email accepts or declines',
  agents: 'Agents (API-key principals): creation, project scope, keys (`sk_service_…`) and the workforce view',
  projects: 'Projects, their board (columns, board views), custom views and per-project access (members and teams)',
  teams: 'Teams: named groups of members, used for project access',
  labels: "Labels: the organization's vocabulary for issues",
  issues: 'Issues (tasks): create, read by reference, update, archive, the organization-wide list, labels on issues',
  milestones: 'Milestones of a project',
  comments: 'Comments on issues (Markdown, sanitized HTML rendering)',
  dependencies: 'Dependencies between issues (blocks / blocked by) and the dependency chain',
  activity: 'The activity log of the organization and of an issue',
  attachments: 'Files attached to issues (multipart upload, download)',
  notifications: 'Notifications of the caller and their preferences',
  initiatives: 'Initiatives: cross-project efforts linking projects, issues, milestones and KPIs',
  strategy: 'Strategy: goals, KPIs, KPI snapshots, health and the strategy audit',
  'kpi-http-syncs': 'KPI HTTP syncs: scheduled pulls of KPI values from allowlisted HTTP endpoints',
  webhooks: 'Webhooks: signed deliveries of issue events, their history and redelivery',
  automation: 'Automation rules: triggers on issue events and their actions',
  heartbeat: "The agent heartbeat (the caller's briefing, paged and acknowledged) and each agent's heartbeat policy",
  'agent-executions': 'Agent executions on issues (a fenced state machine), their evidence and attention requests to humans',
  runners: 'Local runners: installations (presence, intake) and fenced leases on issues',
  artifacts: 'Artifacts: versioned documents (revisions) linked to issues and projects',
  github: 'GitHub: source-hosting connections, pull-request links, external references, issue delivery context and the signed webhook receiver',
  oauth: 'OAuth 2.1 authorization server of the MCP resource: discovery, client registration, consent, tokens, connections and agent profiles',
  'chat-integrations': "Chat provider integration (Google Chat): the calling member's own link",
  mcp: 'The MCP endpoint (Streamable HTTP, stateless JSON-RPC over POST)',
  operations: 'Health and metrics of the service',
  templates: 'Issue templates of a project or of the whole organization; issue create takes `templateId`',
  'project status': "Project status updates (on track, at risk, off track) and the organization's project health",
  analytics: 'Work analytics: daily flow, cycle and lead time, throughput of people and agents',
};

/** The OpenAPI 3.1.0 document: every route, its schemas, the two auth schemes and error responses. */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const builder = new DocumentBuilder()
    .setOpenAPIVersion('3.1.0')
    .setTitle('Project management and agent collaboration service')
    .setDescription(
      'Multi-tenant REST API. Humans authenticate with a web-session cookie; agents with `Authorization: Bearer sk_service_<key>`. ' +
        'Requests accept camelCase and the documented snake_case aliases; responses are snake_case. Errors are `{ error, code? }`.',
    )
    .setVersion('1.0.0')
    .addServer('/', 'This server')
    .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'sk_service_<key>', description: 'Agent API key of the form `sk_service_<key>`' }, 'apiKey')
    .addBearerAuth(
      {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'opaque',
        description: "OAuth 2.1 access token for this service's MCP resource (`/mcp`), issued by `/api/oauth/token`",
      },
      'oauth',
    )
    .addCookieAuth('sid', { type: 'apiKey', in: 'cookie', name: 'sid', description: 'Human web session (httpOnly, SameSite=Lax)' }, 'session')
    .addSecurityRequirements('apiKey')
    .addSecurityRequirements('session');
  for (const [name, description] of Object.entries(TAGS)) builder.addTag(name, description);
  const doc = SwaggerModule.createDocument(app, builder.build(), { operationIdFactory: operationId });
  refineDocument(doc, routeFacts(app));
  documentAliases(app, doc);
  // only the tags in use, each described (an undescribed one fails the lint)
  const used = new Set(Object.values(doc.paths).flatMap((item) => Object.values(item as Record<string, { tags?: string[] }>).flatMap((op) => op.tags ?? [])));
  doc.tags = [...(doc.tags ?? []).filter((t) => used.has(t.name)), ...[...used].filter((t) => !TAGS[t]).map((name) => ({ name }))];
  return doc;
}

type Class = abstract new (...args: never[]) => unknown;

/**
 * The accepted aliases of every request DTO (declared with `@Alias`): each canonical property's
 * description ends with "Also accepted as `…`." and the schema carries `x-aliases`, so generated
 * clients and readers see every accepted name.
 */
function documentAliases(app: INestApplication, doc: OpenAPIObject): void {
  const seen = new Set<Class>();
  const visit = (type: Class): void => {
    if (seen.has(type)) return;
    seen.add(type);
    const schema = doc.components?.schemas?.[type.name] as { properties?: Record<string, Record<string, unknown>> } | undefined;
    for (const [prop, spec] of aliasesOf(type)) {
      if (spec.nested) visit(spec.nested());
      const target = schema?.properties?.[prop];
      if (!target || !spec.names.length) continue;
      const note = `Also accepted as ${spec.names.map((n) => `\`${n}\``).join(', ')}.`;
      target.description = typeof target.description === 'string' && target.description ? `${target.description.replace(/\.$/, '')}. ${note}` : note;
      target['x-aliases'] = spec.names;
    }
  };
  for (const module of app.get(ModulesContainer).values()) {
    for (const wrapper of module.controllers.values()) {
      const proto = (wrapper.metatype as Class | null)?.prototype as object | undefined;
      if (!proto) continue;
      for (const method of Object.getOwnPropertyNames(proto)) {
        const params = (Reflect.getMetadata('design:paramtypes', proto, method) ?? []) as unknown[];
        for (const p of params) if (typeof p === 'function' && p !== Object) visit(p as Class);
      }
    }
  }
}

const served = new WeakMap<INestApplication, OpenAPIObject>();

/** The document `setupOpenApi` serves for `app` (the tests check every response against it). */
export const servedOpenApiDocument = (app: INestApplication): OpenAPIObject | undefined => served.get(app);

export function setupOpenApi(app: INestApplication): void {
  const doc = buildOpenApiDocument(app);
  served.set(app, doc);
  SwaggerModule.setup('api/docs', app, doc, { jsonDocumentUrl: 'api/openapi.json', raw: ['json'] });
}
