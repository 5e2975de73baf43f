import { Body, Controller, Delete, Get, Param, Patch, Post, Query, Req, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CurrentActor, OrgScoped } from '../../common/auth/decorators';
import type { Actor } from '../../common/auth/principal';
import { serializeOnce } from '../../common/http/serialize-once';
import { UuidParamPipe } from '../../common/http/validation';
import { CreateGoalCommand } from './commands/create-goal/create-goal.command';
import { CreateGoalDto } from './commands/create-goal/create-goal.dto';
import { CreateKpiCommand } from './commands/create-kpi/create-kpi.command';
import { CreateKpiDto } from './commands/create-kpi/create-kpi.dto';
import { DeleteGoalCommand } from './commands/delete-goal/delete-goal.command';
import { DeleteKpiCommand } from './commands/delete-kpi/delete-kpi.command';
import { RecordSnapshotCommand } from './commands/record-snapshot/record-snapshot.command';
import { RecordSnapshotDto } from './commands/record-snapshot/record-snapshot.dto';
import { UpdateGoalCommand } from './commands/update-goal/update-goal.command';
import { UpdateGoalDto } from './commands/update-goal/update-goal.dto';
import { UpdateKpiCommand } from './commands/update-kpi/update-kpi.command';
import { UpdateKpiDto } from './commands/update-kpi/update-kpi.dto';
import { GetGoalQuery } from './queries/get-goal/get-goal.query';
import { GetKpiQuery } from './queries/get-kpi/get-kpi.query';
import { ListGoalsQuery } from './queries/list-goals/list-goals.query';
import { ListKpisQuery } from './queries/list-kpis/list-kpis.query';
import { ListSnapshotsQuery } from './queries/list-snapshots/list-snapshots.query';
import { StrategyAuditQuery } from './queries/strategy-audit/strategy-audit.query';
import {
  GoalEnvelope,
  GoalListResponse,
  KpiDetailEnvelope,
  KpiEnvelope,
  KpiListResponse,
  SnapshotEnvelope,
  SnapshotListResponse,
  StrategyAuditResponse,
  StrategySuccessResponse,
} from './strategy.response';
import { ApiPagedList } from '../../common/openapi/decorators';

/** Goals, KPIs, snapshots and the strategy audit. See StrategyModule for who may do what. */
@ApiTags('strategy')
@ApiParam({ name: 'id', description: 'Organization id' })
@OrgScoped()
@Controller('api/orgs/:id')
export class StrategyController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Get('goals')
  @ApiOperation({ summary: 'Readable goals (`?status=`); legacy `{ goals }` or `shape=envelope`' })
  @ApiOkResponse({ type: GoalListResponse })
  @ApiPagedList()
  listGoals(@CurrentActor() actor: Actor, @Query() query: Record<string, unknown>): Promise<Record<string, unknown>> {
    return this.queries.execute(new ListGoalsQuery(actor, query));
  }

  @Post('goals')
  @ApiOperation({ summary: 'Create a goal (owners and admins)' })
  @ApiCreatedResponse({ type: GoalEnvelope })
  createGoal(@CurrentActor() actor: Actor, @Body() dto: CreateGoalDto): Promise<GoalEnvelope> {
    return this.commands.execute(new CreateGoalCommand(actor, dto));
  }

  @Get('goals/:goalId')
  @ApiOperation({ summary: 'One goal (404 when unreadable)' })
  @ApiOkResponse({ type: GoalEnvelope })
  getGoal(@CurrentActor() actor: Actor, @Param('goalId', UuidParamPipe) goalId: string): Promise<GoalEnvelope> {
    return this.queries.execute(new GetGoalQuery(actor, goalId));
  }

  @Patch('goals/:goalId')
  @ApiOperation({ summary: 'Update a goal (owners and admins); only given fields change' })
  @ApiOkResponse({ type: GoalEnvelope })
  updateGoal(@CurrentActor() actor: Actor, @Param('goalId', UuidParamPipe) goalId: string, @Body() dto: UpdateGoalDto): Promise<GoalEnvelope> {
    return this.commands.execute(new UpdateGoalCommand(actor, goalId, dto));
  }

  @Delete('goals/:goalId')
  @ApiOperation({ summary: 'Delete a goal (owners and admins); its KPIs and initiatives stay without goal' })
  @ApiOkResponse({ type: StrategySuccessResponse })
  deleteGoal(@CurrentActor() actor: Actor, @Param('goalId', UuidParamPipe) goalId: string): Promise<StrategySuccessResponse> {
    return this.commands.execute(new DeleteGoalCommand(actor, goalId));
  }

  @Get('kpis')
  @ApiOperation({ summary: 'Readable KPIs (`?goal_id=`); legacy `{ kpis }` or `shape=envelope`' })
  @ApiOkResponse({ type: KpiListResponse })
  @ApiPagedList()
  listKpis(@CurrentActor() actor: Actor, @Query() query: Record<string, unknown>): Promise<Record<string, unknown>> {
    return this.queries.execute(new ListKpisQuery(actor, query));
  }

  @Post('kpis')
  @ApiOperation({ summary: 'Create a KPI (owners and admins); formula KPIs are calculated at once' })
  @ApiCreatedResponse({ type: KpiEnvelope })
  createKpi(@CurrentActor() actor: Actor, @Body() dto: CreateKpiDto): Promise<KpiEnvelope> {
    return this.commands.execute(new CreateKpiCommand(actor, dto));
  }

  @Get('kpis/:kpiId')
  @ApiOperation({ summary: 'One KPI with the impact links of initiatives the caller can read' })
  @ApiOkResponse({ type: KpiDetailEnvelope })
  getKpi(@CurrentActor() actor: Actor, @Param('kpiId', UuidParamPipe) kpiId: string): Promise<KpiDetailEnvelope> {
    return this.queries.execute(new GetKpiQuery(actor, kpiId));
  }

  @Patch('kpis/:kpiId')
  @ApiOperation({ summary: 'Update a KPI (owners and admins); only given fields change' })
  @ApiOkResponse({ type: KpiEnvelope })
  updateKpi(@CurrentActor() actor: Actor, @Param('kpiId', UuidParamPipe) kpiId: string, @Body() dto: UpdateKpiDto): Promise<KpiEnvelope> {
    return this.commands.execute(new UpdateKpiCommand(actor, kpiId, dto));
  }

  @Delete('kpis/:kpiId')
  @ApiOperation({ summary: 'Delete a KPI and its snapshots (owners and admins)' })
  @ApiOkResponse({ type: StrategySuccessResponse })
  deleteKpi(@CurrentActor() actor: Actor, @Param('kpiId', UuidParamPipe) kpiId: string): Promise<StrategySuccessResponse> {
    return this.commands.execute(new DeleteKpiCommand(actor, kpiId));
  }

  @Get('kpis/:kpiId/snapshots')
  @ApiOperation({ summary: 'Snapshots of a readable KPI, newest first' })
  @ApiOkResponse({ type: SnapshotListResponse })
  @ApiPagedList()
  listSnapshots(
    @CurrentActor() actor: Actor,
    @Param('kpiId', UuidParamPipe) kpiId: string,
    @Query() query: Record<string, unknown>,
  ): Promise<Record<string, unknown>> {
    return this.queries.execute(new ListSnapshotsQuery(actor, kpiId, query));
  }

  @Post('kpis/:kpiId/snapshots')
  @ApiOperation({ summary: 'Record a snapshot (owners and admins); updates current_value' })
  @ApiCreatedResponse({ type: SnapshotEnvelope })
  recordSnapshot(@CurrentActor() actor: Actor, @Param('kpiId', UuidParamPipe) kpiId: string, @Body() dto: RecordSnapshotDto): Promise<SnapshotEnvelope> {
    return this.commands.execute(new RecordSnapshotCommand(actor, kpiId, dto));
  }

  @Get('strategy/audit')
  @ApiOperation({ summary: 'Strategy audit findings (`?severity=critical|warning|info`); guests 403' })
  @ApiOkResponse({ type: StrategyAuditResponse })
  audit(
    @CurrentActor() actor: Actor,
    @Query() query: Record<string, unknown>,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<StrategyAuditResponse> {
    // a kept audit returns the same response object again: its JSON (about 1 MB on the bench) is
    // serialized once, and gzipped once for clients that accept it, not per request
    serializeOnce(req, reply);
    return this.queries.execute(new StrategyAuditQuery(actor, query));
  }
}
