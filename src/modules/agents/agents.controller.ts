import { Body, Controller, Delete, Get, Param, Patch, Post, Query } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiQuery, ApiTags } from '@nestjs/swagger';
import { CurrentActor, HumanOnly, OrgScoped } from '../../common/auth/decorators';
import type { Actor } from '../../common/auth/principal';
import { Errors } from '../../common/errors/domain-error';
import { parsePage } from '../../common/http/list';
import { alias, isUuid, UuidParamPipe } from '../../common/http/validation';
import {
  AgentEnvelope,
  AgentKeyListResponse,
  AgentListResponse,
  AgentSuccessResponse,
  CreatedAgentResponse,
  ManageableAgentListResponse,
  MintedKeyResponse,
  WorkforceListResponse,
} from './agents.response';
import { CreateAgentCommand } from './commands/create-agent/create-agent.command';
import { CreateAgentDto } from './commands/create-agent/create-agent.dto';
import { MintAgentKeyCommand } from './commands/mint-agent-key/mint-agent-key.command';
import { ReplaceAgentProjectsCommand } from './commands/replace-agent-projects/replace-agent-projects.command';
import { ReplaceAgentProjectsDto } from './commands/replace-agent-projects/replace-agent-projects.dto';
import { RevokeAgentCommand } from './commands/revoke-agent/revoke-agent.command';
import { RevokeAgentKeyCommand } from './commands/revoke-agent-key/revoke-agent-key.command';
import { RotateAgentKeysCommand } from './commands/rotate-agent-keys/rotate-agent-keys.command';
import { ListAgentKeysQuery } from './queries/list-agent-keys/list-agent-keys.query';
import { ListAgentsQuery } from './queries/list-agents/list-agents.query';
import { ListManageableAgentsQuery } from './queries/list-manageable-agents/list-manageable-agents.query';
import { ListWorkforceAgentsQuery } from './queries/list-workforce-agents/list-workforce-agents.query';
import { ApiErrors } from '../../common/openapi/decorators';

const PAGE_QUERIES = [
  ApiQuery({ name: 'limit', required: false, description: 'Page size, default 25, at most 100 (larger values are clamped)' }),
  ApiQuery({ name: 'offset', required: false, description: 'Non-negative offset, default 0' }),
  ApiQuery({ name: 'shape', required: false, description: '`envelope` selects the list envelope (alias `response_shape=cli`)' }),
];
const withPageQueries = (): MethodDecorator => (target, key, descriptor) => {
  for (const d of PAGE_QUERIES) d(target, key, descriptor);
};

const AGENT_ID = ApiParam({ name: 'agentId', description: 'Agent id (equal to its member id)' });

@ApiTags('agents')
@OrgScoped()
@Controller('api/orgs/:id/agents')
export class AgentsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Get()
  @ApiOperation({ summary: 'List the organization’s active agents (owners and admins); key prefixes only, never keys' })
  @withPageQueries()
  @ApiOkResponse({ type: AgentListResponse })
  list(@CurrentActor() actor: Actor, @Query() query: Record<string, unknown>): Promise<Record<string, unknown>> {
    return this.queries.execute(new ListAgentsQuery(actor, parsePage(query)));
  }

  @Post()
  @HumanOnly()
  @ApiOperation({
    summary: 'Create an agent and its first API key (humans only)',
    description:
      'Organization agent `{ name, role? }` (owner/admin; role `member` default or `admin`); project-scoped agent `{ name, projectIds }` ' +
      '(an organization guest with `edit` on each project; the caller needs `admin` on each; aliases `project_ids`, legacy `projectId`); ' +
      'personal agent `{ name, personal: true }` (acts with the caller’s own live access; any non-guest member). ' +
      'The response holds the full key once (`apiKey`); only its hash is stored. 402 when the plan’s agent limit is reached.',
  })
  @ApiCreatedResponse({ type: CreatedAgentResponse })
  @ApiErrors(402)
  create(@CurrentActor() actor: Actor, @Body() dto: CreateAgentDto): Promise<CreatedAgentResponse> {
    return this.commands.execute(new CreateAgentCommand(actor, dto.name, dto.role, dto.projectIds, dto.projectId, dto.personal === true));
  }

  @Get('manageable')
  @ApiOperation({
    summary: 'Agents the caller may manage, with key usage metadata',
    description:
      'Judged with the caller’s current role and access: owners/admins (humans) manage every agent; others their personal agents ' +
      '(non-guests) and the project-scoped agents they created while they hold at least the agent’s access on each of its projects. `key_prefix` and `last_used_at` ' +
      'describe the selected active key (the newest one not revoked); `activity_last_used_at` is the latest use over all active keys.',
  })
  @withPageQueries()
  @ApiOkResponse({ type: ManageableAgentListResponse })
  manageable(@CurrentActor() actor: Actor, @Query() query: Record<string, unknown>): Promise<Record<string, unknown>> {
    return this.queries.execute(new ListManageableAgentsQuery(actor, parsePage(query)));
  }

  @Get('workforce')
  @HumanOnly()
  @ApiOperation({
    summary: 'Read-only workforce projection of agents (humans only)',
    description:
      'With `projectId`: callers with `admin` access to the project see the agents with access to it. Without: owners/admins see every ' +
      'agent, others the agents they created or personally own. `capabilities` ⊆ `read_projects`, `write_issues`, `manage_projects`, ' +
      '`manage_organization`. `key_prefix` only on rows whose keys the caller may manage.',
  })
  @ApiQuery({ name: 'projectId', required: false, description: 'Project filter (alias `project_id`)' })
  @ApiQuery({ name: 'limit', required: false, description: '1..100, default 50; larger values are clamped to 100' })
  @ApiQuery({ name: 'offset', required: false, description: 'Non-negative offset, default 0' })
  @ApiOkResponse({ type: WorkforceListResponse })
  workforce(@CurrentActor() actor: Actor, @Query() query: Record<string, unknown>): Promise<WorkforceListResponse> {
    const projectId = alias<unknown>(query, 'projectId', 'project_id');
    if (projectId !== undefined && !isUuid(projectId)) throw Errors.validation('projectId must be a project id (UUID)');
    const page = parsePage(query, { defaultLimit: 50, maxLimit: 100 });
    return this.queries.execute(new ListWorkforceAgentsQuery(actor, projectId?.toLowerCase(), page));
  }

  @Delete(':agentId')
  @HumanOnly()
  @AGENT_ID
  @ApiOperation({ summary: 'Revoke a manageable agent: it leaves the organization and every key stops working on the next request' })
  @ApiOkResponse({ type: AgentSuccessResponse })
  revoke(@CurrentActor() actor: Actor, @Param('agentId', UuidParamPipe) agentId: string): Promise<AgentSuccessResponse> {
    return this.commands.execute(new RevokeAgentCommand(actor, agentId));
  }

  @Patch(':agentId/projects')
  @HumanOnly()
  @AGENT_ID
  @ApiOperation({
    summary: 'Replace a project-scoped agent’s projects',
    description:
      '`{ projectIds }` (alias `project_ids`), at least one. The caller needs `admin` on every project added or removed. Applies on the agent’s next request.',
  })
  @ApiOkResponse({ type: AgentEnvelope })
  @ApiErrors({ 409: '`conflict`: the agent’s projects changed concurrently' })
  replaceProjects(
    @CurrentActor() actor: Actor,
    @Param('agentId', UuidParamPipe) agentId: string,
    @Body() dto: ReplaceAgentProjectsDto,
  ): Promise<AgentEnvelope> {
    return this.commands.execute(new ReplaceAgentProjectsCommand(actor, agentId, dto.projectIds));
  }

  @Get(':agentId/keys')
  @HumanOnly()
  @AGENT_ID
  @ApiOperation({ summary: 'List a manageable agent’s keys (metadata only, newest first)' })
  @ApiOkResponse({ type: AgentKeyListResponse })
  keys(@CurrentActor() actor: Actor, @Param('agentId', UuidParamPipe) agentId: string): Promise<AgentKeyListResponse> {
    return this.queries.execute(new ListAgentKeysQuery(actor, agentId));
  }

  @Post(':agentId/keys')
  @HumanOnly()
  @AGENT_ID
  @ApiOperation({ summary: 'Mint one more key for a manageable agent (the full key is shown once)' })
  @ApiCreatedResponse({ type: MintedKeyResponse })
  @ApiErrors({ 409: '`too_many_keys`: the agent has the most active keys allowed; revoke one first' })
  mintKey(@CurrentActor() actor: Actor, @Param('agentId', UuidParamPipe) agentId: string): Promise<MintedKeyResponse> {
    return this.commands.execute(new MintAgentKeyCommand(actor, agentId));
  }

  @Delete(':agentId/keys/:keyId')
  @HumanOnly()
  @AGENT_ID
  @ApiParam({ name: 'keyId', description: 'Key id (`apiKeyId`)' })
  @ApiOperation({ summary: 'Revoke one key of a manageable agent (it fails on the next request; other keys keep working)' })
  @ApiOkResponse({ type: AgentSuccessResponse })
  revokeKey(
    @CurrentActor() actor: Actor,
    @Param('agentId', UuidParamPipe) agentId: string,
    @Param('keyId', UuidParamPipe) keyId: string,
  ): Promise<AgentSuccessResponse> {
    return this.commands.execute(new RevokeAgentKeyCommand(actor, agentId, keyId));
  }

  @Post(':agentId/rotate')
  @HumanOnly()
  @AGENT_ID
  @ApiOperation({ summary: 'Revoke every key of a manageable agent and mint one new key (shown once)' })
  @ApiCreatedResponse({ type: MintedKeyResponse })
  rotate(@CurrentActor() actor: Actor, @Param('agentId', UuidParamPipe) agentId: string): Promise<MintedKeyResponse> {
    return this.commands.execute(new RotateAgentKeysCommand(actor, agentId));
  }
}
