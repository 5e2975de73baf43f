import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiCreatedResponse, ApiExtraModels, ApiOkResponse, ApiOperation, ApiParam, ApiQuery, ApiTags, getSchemaPath } from '@nestjs/swagger';
import { CurrentActor, OrgScoped } from '../../common/auth/decorators';
import type { Actor } from '../../common/auth/principal';
import { Errors } from '../../common/errors/domain-error';
import { IssueAddressed } from '../../common/http/issue-reference';
import { UuidParamPipe } from '../../common/http/validation';
import { AddDependencyCommand } from './commands/add-dependency/add-dependency.command';
import { AddDependencyDto } from './commands/add-dependency/add-dependency.dto';
import { RemoveDependencyCommand } from './commands/remove-dependency/remove-dependency.command';
import { UpdateDependencyCommand } from './commands/update-dependency/update-dependency.command';
import { UpdateDependencyDto } from './commands/update-dependency/update-dependency.dto';
import { DependencyChain, DependencyEnvelope, DependencyLists, SuccessResponse } from './dependencies.response';
import { DependencyChainQuery } from './queries/dependency-chain/dependency-chain.query';
import { ListDependenciesQuery } from './queries/list-dependencies/list-dependencies.query';
import { ApiErrors } from '../../common/openapi/decorators';

/** Dependencies between issues ("blocks" relations). See DependenciesModule. */
@ApiTags('dependencies')
@ApiParam({ name: 'id', description: 'Organization id' })
@IssueAddressed()
@ApiExtraModels(DependencyLists, DependencyChain)
@OrgScoped()
@Controller('api/orgs/:id/issues/:issueId/dependencies')
export class DependenciesController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Get()
  @ApiOperation({
    summary: 'Dependencies of an issue: `{ blocking, blockedBy }`, or the normalized graph with `view=chain`',
    description:
      'Unreadable other issues appear as `issue: null`; release metadata and `satisfied` only when the blocking issue is readable. ' +
      'With `view=chain`: `direction`, `depth` (1..5, default 2), `limit` (1..100, default 50) and the opaque `cursor` of `page.next_cursor`.',
  })
  @ApiQuery({ name: 'view', required: false, enum: ['chain'], description: '`chain` returns the dependency graph' })
  @ApiQuery({ name: 'direction', required: false, enum: ['upstream', 'downstream', 'both'], description: 'Chain only; default `both`' })
  @ApiQuery({ name: 'depth', required: false, description: 'Chain only; integer 1..5, default 2' })
  @ApiQuery({ name: 'limit', required: false, description: 'Chain only; nodes per page, integer 1..100, default 50' })
  @ApiQuery({ name: 'cursor', required: false, description: 'Chain only; opaque `page.next_cursor` of the previous page' })
  @ApiOkResponse({ schema: { oneOf: [{ $ref: getSchemaPath(DependencyLists) }, { $ref: getSchemaPath(DependencyChain) }] } })
  list(
    @CurrentActor() actor: Actor,
    @Param('issueId', UuidParamPipe) issueId: string,
    @Query() query: Record<string, unknown>,
  ): Promise<DependencyLists | DependencyChain> {
    const view = query.view;
    if (view === undefined || view === '' || view === 'list') return this.queries.execute(new ListDependenciesQuery(actor, issueId));
    if (view === 'chain') return this.queries.execute(new DependencyChainQuery(actor, issueId, query));
    throw Errors.validation('view must be chain (or omitted)');
  }

  @Post()
  @ApiOperation({
    summary: 'Add a dependency: `{ blockedByIssueId }` (that issue blocks this one) or `{ blockingIssueId }` (this issue blocks that one)',
    description:
      'Needs edit on this issue and read access to the other. The blocking issue must be in a project; `releaseColumnId` defaults to its `done` column. ' +
      'Self-dependencies and cycles are 400, duplicates 409.',
  })
  @ApiCreatedResponse({ type: DependencyEnvelope })
  @ApiErrors({ 409: '`dependency_exists`: this dependency already exists' })
  async add(@CurrentActor() actor: Actor, @Param('issueId', UuidParamPipe) issueId: string, @Body() dto: AddDependencyDto): Promise<DependencyEnvelope> {
    return { dependency: await this.commands.execute(new AddDependencyCommand(actor, issueId, { ...dto })) };
  }

  @Patch(':dependencyId')
  @ApiOperation({ summary: "Change the release column (`releaseColumnId`, a column of the blocking issue's project)" })
  @ApiOkResponse({ type: DependencyEnvelope })
  async update(
    @CurrentActor() actor: Actor,
    @Param('issueId', UuidParamPipe) issueId: string,
    @Param('dependencyId', UuidParamPipe) dependencyId: string,
    @Body() dto: UpdateDependencyDto,
  ): Promise<DependencyEnvelope> {
    return { dependency: await this.commands.execute(new UpdateDependencyCommand(actor, issueId, dependencyId, { ...dto })) };
  }

  @Delete(':dependencyId')
  @HttpCode(200)
  @ApiOperation({ summary: 'Remove a dependency of this issue' })
  @ApiParam({ name: 'dependencyId', description: 'Dependency id' })
  @ApiOkResponse({ type: SuccessResponse })
  async remove(
    @CurrentActor() actor: Actor,
    @Param('issueId', UuidParamPipe) issueId: string,
    @Param('dependencyId', UuidParamPipe) dependencyId: string,
  ): Promise<SuccessResponse> {
    await this.commands.execute(new RemoveDependencyCommand(actor, issueId, dependencyId));
    return { success: true };
  }
}
