import { Body, Controller, Delete, Get, Param, Post, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { CurrentActor, OrgScoped } from '../../common/auth/decorators';
import type { Actor } from '../../common/auth/principal';
import { IssueAddressed } from '../../common/http/issue-reference';
import { UuidParamPipe } from '../../common/http/validation';
import { AddIssueLabelCommand } from './commands/add-issue-label/add-issue-label.command';
import { AddIssueLabelDto } from './commands/add-issue-label/add-issue-label.dto';
import { RemoveIssueLabelCommand } from './commands/remove-issue-label/remove-issue-label.command';
import { IssueLabelAddedResponse, IssueLabelListResponse, IssueLabelRemovedResponse } from './issue-labels.response';
import { ListIssueLabelsQuery } from './queries/list-issue-labels/list-issue-labels.query';

/** Labels on one issue. See IssueLabelsModule for the rules. */
@ApiTags('issues')
@ApiParam({ name: 'id', description: 'Organization id' })
@IssueAddressed()
@OrgScoped()
@Controller('api/orgs/:id/issues/:issueId/labels')
export class IssueLabelsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Get()
  @ApiOperation({ summary: 'Labels of the issue (issue read)' })
  @ApiOkResponse({ type: IssueLabelListResponse })
  list(@CurrentActor() actor: Actor, @Param('issueId', UuidParamPipe) issueId: string): Promise<IssueLabelListResponse> {
    return this.queries.execute(new ListIssueLabelsQuery(actor, issueId));
  }

  @Post()
  @ApiOperation({ summary: 'Add a label { labelId } (issue edit); 201 when added, 200 when it was already there' })
  @ApiCreatedResponse({ type: IssueLabelAddedResponse })
  @ApiOkResponse({ type: IssueLabelAddedResponse, description: 'Already linked (idempotent)' })
  async add(
    @CurrentActor() actor: Actor,
    @Param('issueId', UuidParamPipe) issueId: string,
    @Body() dto: AddIssueLabelDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<IssueLabelAddedResponse> {
    const { status, body } = await this.commands.execute(new AddIssueLabelCommand(actor, issueId, dto));
    reply.status(status);
    return body;
  }

  @Delete(':labelId')
  @ApiOperation({ summary: 'Remove a label from the issue (issue edit); 404 when it is not on the issue' })
  @ApiOkResponse({ type: IssueLabelRemovedResponse })
  remove(
    @CurrentActor() actor: Actor,
    @Param('issueId', UuidParamPipe) issueId: string,
    @Param('labelId', UuidParamPipe) labelId: string,
  ): Promise<IssueLabelRemovedResponse> {
    return this.commands.execute(new RemoveIssueLabelCommand(actor, issueId, labelId));
  }
}
