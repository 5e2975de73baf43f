import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiQuery, ApiTags } from '@nestjs/swagger';
import { CurrentActor, OrgScoped } from '../../common/auth/decorators';
import type { Actor } from '../../common/auth/principal';
import { Errors } from '../../common/errors/domain-error';
import { parsePage } from '../../common/http/list';
import { isUuid, UuidParamPipe } from '../../common/http/validation';
import { AutomationRuleEnvelope, AutomationRuleList, AutomationRunList, DryRunResponse, SuccessResponse } from './automation.response';
import { CreateAutomationRuleCommand } from './commands/create-automation-rule/create-automation-rule.command';
import { CreateAutomationRuleDto } from './commands/create-automation-rule/create-automation-rule.dto';
import { DeleteAutomationRuleCommand } from './commands/delete-automation-rule/delete-automation-rule.command';
import { UpdateAutomationRuleCommand } from './commands/update-automation-rule/update-automation-rule.command';
import { DryRunAutomationRuleDto } from './queries/dry-run-automation-rule/dry-run-automation-rule.dto';
import { DryRunAutomationRuleQuery } from './queries/dry-run-automation-rule/dry-run-automation-rule.query';
import { GetAutomationRuleQuery } from './queries/get-automation-rule/get-automation-rule.query';
import { ListAutomationRuleRunsQuery } from './queries/list-automation-rule-runs/list-automation-rule-runs.query';
import { ListAutomationRulesQuery } from './queries/list-automation-rules/list-automation-rules.query';

/** Automation rules of an organization. See AutomationModule for who may do what. */
@ApiTags('automation')
@ApiParam({ name: 'id', description: 'Organization id' })
@OrgScoped()
@Controller('api/orgs/:id/automation-rules')
export class AutomationController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Get()
  @ApiOperation({ summary: 'List the rules the caller can read (non-guest members; rules of unreadable projects omitted)' })
  @ApiQuery({ name: 'project_id', required: false, description: 'Only the rules of this project' })
  @ApiQuery({ name: 'limit', required: false, description: 'Page size, default 25, at most 100' })
  @ApiQuery({ name: 'offset', required: false })
  @ApiQuery({ name: 'shape', required: false, enum: ['envelope', 'legacy'] })
  @ApiOkResponse({ type: AutomationRuleList, description: 'Legacy `{ rules, total, limit, offset }`, or the envelope with `shape=envelope`' })
  list(@CurrentActor() actor: Actor, @Query() query: Record<string, unknown>): Promise<Record<string, unknown>> {
    const project = query.project_id ?? query.projectId;
    if (project !== undefined && !isUuid(project)) throw Errors.validation('project_id must be a project id (UUID)');
    return this.queries.execute(new ListAutomationRulesQuery(actor, parsePage(query), project ? project.toLowerCase() : null));
  }

  @Post()
  @ApiOperation({ summary: 'Create a rule (owners and admins)' })
  @ApiCreatedResponse({ type: AutomationRuleEnvelope })
  async create(@CurrentActor() actor: Actor, @Body() dto: CreateAutomationRuleDto): Promise<AutomationRuleEnvelope> {
    return { rule: await this.commands.execute(new CreateAutomationRuleCommand(actor, dto)) };
  }

  @Get(':ruleId')
  @ApiOperation({ summary: 'One rule (non-guest members who can read its project)' })
  @ApiOkResponse({ type: AutomationRuleEnvelope })
  async get(@CurrentActor() actor: Actor, @Param('ruleId', UuidParamPipe) ruleId: string): Promise<AutomationRuleEnvelope> {
    return { rule: await this.queries.execute(new GetAutomationRuleQuery(actor, ruleId)) };
  }

  @Put(':ruleId')
  @ApiOperation({ summary: 'Update a rule (owners and admins); omitted fields are kept' })
  @ApiOkResponse({ type: AutomationRuleEnvelope })
  async update(
    @CurrentActor() actor: Actor,
    @Param('ruleId', UuidParamPipe) ruleId: string,
    @Body() dto: CreateAutomationRuleDto,
  ): Promise<AutomationRuleEnvelope> {
    return { rule: await this.commands.execute(new UpdateAutomationRuleCommand(actor, ruleId, dto)) };
  }

  @Delete(':ruleId')
  @ApiOperation({ summary: 'Delete a rule and its run history (owners and admins)' })
  @ApiOkResponse({ type: SuccessResponse })
  async remove(@CurrentActor() actor: Actor, @Param('ruleId', UuidParamPipe) ruleId: string): Promise<SuccessResponse> {
    await this.commands.execute(new DeleteAutomationRuleCommand(actor, ruleId));
    return { success: true };
  }

  @Get(':ruleId/activity')
  @ApiOperation({ summary: 'The latest 100 runs, newest first, without payloads (owners and admins)' })
  @ApiOkResponse({ type: AutomationRunList })
  activity(@CurrentActor() actor: Actor, @Param('ruleId', UuidParamPipe) ruleId: string): Promise<AutomationRunList> {
    return this.queries.execute(new ListAutomationRuleRunsQuery(actor, ruleId));
  }

  @Post(':ruleId/test')
  @HttpCode(200)
  @ApiOperation({ summary: 'Dry run against `{ issue_id }` or `{ issue: {…} }`: changes nothing, records nothing (owners and admins)' })
  @ApiOkResponse({ type: DryRunResponse })
  test(@CurrentActor() actor: Actor, @Param('ruleId', UuidParamPipe) ruleId: string, @Body() dto: DryRunAutomationRuleDto): Promise<DryRunResponse> {
    return this.queries.execute(new DryRunAutomationRuleQuery(actor, ruleId, dto));
  }
}
