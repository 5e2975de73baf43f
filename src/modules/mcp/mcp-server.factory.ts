import { Injectable, Logger, type Type } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, type CallToolResult, ListToolsRequestSchema, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { Actor, type AgentPrincipal } from '../../common/auth/principal';
import { DomainError, Errors } from '../../common/errors/domain-error';
import { toErrorResponse } from '../../common/errors/http-exception.filter';
import { AppValidationPipe, isUuid } from '../../common/http/validation';
import { IssueReferenceResolver } from '../issues/issue-reference.resolver';
import { ProfileErrors } from '../oauth/oauth-errors';
import { OAuthProfiles } from '../oauth/oauth-profiles.service';
import type { GrantRow } from '../oauth/oauth.repository';
import type { McpToolContext, McpToolDefinition } from './mcp-tool';
import { McpTools } from './mcp-tools.registry';

/** Who is calling the MCP endpoint: an agent API key, or an OAuth connection (its profiles are resolved on every tool call). */
export type McpCaller = { kind: 'api-key'; principal: AgentPrincipal } | { kind: 'oauth'; grant: GrantRow };

const COMMON_INPUT = {
  org_id: z.uuid().optional().describe("Organization id (defaults to the agent's organization)"),
  profile_ref: z
    .uuid()
    .optional()
    .describe('OAuth connections covering several agents: the agent profile this call acts as (see GET /api/oauth/agent-profiles)'),
};

const SERVER_INFO = { name: 'service-mcp', version: '1.0.0' };

/**
 * Builds the MCP server (official SDK, low-level `Server`) for one HTTP request. Tools come from
 * the McpTools registry; input is checked against the tool's JSON Schema (zod) and then, for
 * bodies, by the REST DTO through the same validation pipe; the query or command runs on the
 * shared buses as the selected agent. Every failure is a tool result with `isError` and the REST
 * error body (`{ error, code, status }`), never a crashed session.
 */
@Injectable()
export class McpServerFactory {
  private readonly logger = new Logger('Mcp');
  private readonly pipe = new AppValidationPipe();

  constructor(
    private readonly tools: McpTools,
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    private readonly profiles: OAuthProfiles,
    private readonly issues: IssueReferenceResolver,
  ) {}

  // The low-level Server on purpose: McpServer reports a schema failure as plain text, and our tool
  // errors must carry the REST `{ error, code }` (validation_failed) like every other failure.
  // eslint-disable-next-line @typescript-eslint/no-deprecated
  create(caller: McpCaller): Server {
    // eslint-disable-next-line @typescript-eslint/no-deprecated
    const server = new Server(SERVER_INFO, {
      capabilities: { tools: {} },
      instructions: 'Project management tools. Issue arguments take any issue reference form. OAuth connections with several agents pass profile_ref.',
    });
    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: this.tools.all().map((t) => this.describe(t)) }));
    server.setRequestHandler(CallToolRequestSchema, async (request) => this.call(caller, request.params.name, request.params.arguments));
    return server;
  }

  private schema(t: McpToolDefinition) {
    return z.strictObject({ ...t.input, ...COMMON_INPUT });
  }

  private describe(t: McpToolDefinition): Tool {
    const json = z.toJSONSchema(this.schema(t), { io: 'input' }) as Record<string, unknown>;
    delete json.$schema;
    return {
      name: t.name,
      title: t.title,
      description: t.description,
      inputSchema: json as Tool['inputSchema'],
      annotations: { title: t.title, readOnlyHint: t.readOnly ?? false },
    };
  }

  private async call(caller: McpCaller, name: string, raw: unknown): Promise<CallToolResult> {
    try {
      const tool = this.tools.get(name);
      if (!tool) throw new DomainError(404, 'unknown_tool', `No tool named ${name}`);
      const parsed = this.schema(tool).safeParse(raw ?? {});
      if (!parsed.success) {
        throw Errors.validation(parsed.error.issues.map((i) => `${i.path.join('.') || 'arguments'}: ${i.message}`).join('; '));
      }
      const { org_id: orgId, profile_ref: profileRef, ...args } = parsed.data as Record<string, unknown>;
      const actor = await this.actorOf(caller, orgId as string | undefined, profileRef as string | undefined);
      const ctx: McpToolContext = {
        actor,
        dto: async (type, value) => (await this.pipe.transform(value, { type: 'body', metatype: type as Type<unknown> })) as never,
        issueId: (reference) => this.issueId(actor, reference),
      };
      const message = await tool.dispatch(ctx, args as never);
      const value: unknown = tool.bus === 'query' ? await this.queries.execute(message as never) : await this.commands.execute(message as never);
      const structured = tool.result ? tool.result(value) : ((value ?? {}) as Record<string, unknown>);
      return { content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured };
    } catch (e) {
      const { status, body } = toErrorResponse(e);
      if (status >= 500) this.logger.error({ err: e, tool: name }, 'MCP tool failed');
      const error = { ...body, status };
      return { isError: true, content: [{ type: 'text', text: JSON.stringify(error) }], structuredContent: error };
    }
  }

  /** The acting agent: the API key's, or the OAuth connection's profile chosen by `profile_ref` (or the only one), re-checked on every call. */
  private async actorOf(caller: McpCaller, orgId: string | undefined, profileRef: string | undefined): Promise<Actor> {
    let p: AgentPrincipal;
    if (caller.kind === 'api-key') {
      if (profileRef !== undefined) throw ProfileErrors.notSupported();
      p = caller.principal;
    } else {
      let usable = await this.profiles.usable(caller.grant);
      if (orgId !== undefined && profileRef === undefined) usable = usable.filter((u) => u.org.id === orgId.toLowerCase());
      p = this.profiles.principalFor(caller.grant, this.profiles.choose(usable, profileRef));
    }
    if (orgId !== undefined && orgId.toLowerCase() !== p.orgId) throw Errors.notFound();
    return new Actor(p.orgId, p.memberId, 'agent', p.role, p.displayName, p, p.agentScope, p.ownerMemberId);
  }

  /** As the REST issue routes: any reference form; an unreadable UUID is the routes' 404 `not_found`. */
  private async issueId(actor: Actor, reference: string): Promise<string> {
    try {
      return (await this.issues.resolve(actor, reference)).id;
    } catch (e) {
      if (e instanceof DomainError && e.code === 'reference_not_found' && isUuid(reference)) throw Errors.notFound('Issue not found');
      throw e;
    }
  }
}
