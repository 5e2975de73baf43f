import { Body, Controller, Delete, Get, Param, Post, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { CurrentActor, OrgScoped } from '../../common/auth/decorators';
import type { Actor } from '../../common/auth/principal';
import { IssueAddressed } from '../../common/http/issue-reference';
import { UuidParamPipe } from '../../common/http/validation';
import { LinkIssueInitiativeCommand } from './commands/link-issue-initiative/link-issue-initiative.command';
import { IssueInitiativeLinkDto } from './commands/link-issue-initiative/link-issue-initiative.dto';
import { UnlinkIssueInitiativeCommand } from './commands/unlink-issue-initiative/unlink-issue-initiative.command';
import { IssueInitiativeEnvelope, IssueInitiativeListResponse, SuccessResponse } from './initiatives.response';
import { ApiLinkErrors } from './link-errors.decorator';
import { ListIssueInitiativesQuery } from './queries/list-issue-initiatives/list-issue-initiatives.query';

/** The issue side of initiative issue links. See InitiativesModule for the rules. */
@ApiTags('issues')
@ApiParam({ name: 'id', description: 'Organization id' })
@IssueAddressed()
@OrgScoped()
@Controller('api/orgs/:id/issues/:issueId/initiatives')
export class IssueInitiativesController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Get()
  @ApiOperation({ summary: 'Initiatives the issue is linked to (issue access; unreadable initiatives omitted)' })
  @ApiOkResponse({ type: IssueInitiativeListResponse })
  list(@CurrentActor() actor: Actor, @Param('issueId', UuidParamPipe) issueId: string): Promise<IssueInitiativeListResponse> {
    return this.queries.execute(new ListIssueInitiativesQuery(actor, issueId));
  }

  @Post()
  @ApiOperation({
    summary:
      "Link the issue to an initiative { initiative_id } (edit on the issue's project, which must be linked to the initiative, and on every initiative project); already linked: 200",
  })
  @ApiCreatedResponse({ type: IssueInitiativeEnvelope })
  @ApiOkResponse({ type: IssueInitiativeEnvelope, description: 'Already linked' })
  @ApiLinkErrors('initiative')
  async link(
    @CurrentActor() actor: Actor,
    @Param('issueId', UuidParamPipe) issueId: string,
    @Body() dto: IssueInitiativeLinkDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<IssueInitiativeEnvelope> {
    const r: { status: number; body: IssueInitiativeEnvelope } = await this.commands.execute(new LinkIssueInitiativeCommand(actor, issueId, dto));
    reply.status(r.status);
    return r.body;
  }

  @Delete(':initiativeId')
  @ApiOperation({ summary: 'Unlink the issue from an initiative (same rules)' })
  @ApiOkResponse({ type: SuccessResponse })
  unlink(
    @CurrentActor() actor: Actor,
    @Param('issueId', UuidParamPipe) issueId: string,
    @Param('initiativeId', UuidParamPipe) initiativeId: string,
  ): Promise<SuccessResponse> {
    return this.commands.execute(new UnlinkIssueInitiativeCommand(actor, issueId, initiativeId));
  }
}
