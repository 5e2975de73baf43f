import { Controller, Get, Param, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOkResponse, ApiOperation, ApiParam, ApiQuery, ApiTags } from '@nestjs/swagger';
import { CurrentActor, OrgScoped } from '../../common/auth/decorators';
import { Actor } from '../../common/auth/principal';
import { IssueAddressed } from '../../common/http/issue-reference';
import { UuidParamPipe } from '../../common/http/validation';
import { IssueActivityResponse, OrgActivityResponse } from './activity.response';
import { ListIssueActivityQuery } from './queries/list-issue-activity/list-issue-activity.query';
import { ListOrgActivityQuery } from './queries/list-org-activity/list-org-activity.query';

@ApiTags('activity')
@ApiParam({ name: 'id', description: 'Organization id' })
@OrgScoped()
@Controller('api/orgs/:id')
export class ActivityController {
  constructor(private readonly queries: QueryBus) {}

  @Get('activity')
  @ApiOperation({ summary: 'Task activity of the organization, newest first, limited to issues the caller can read' })
  @ApiQuery({ name: 'limit', required: false, description: 'Page size, default 25, max 100 (clamped)' })
  @ApiQuery({ name: 'offset', required: false, description: 'Items to skip, default 0' })
  @ApiQuery({
    name: 'filter',
    required: false,
    enum: ['all', 'by_me', 'mine'],
    description: '`by_me`: events the caller caused; `mine`: events of issues assigned to or created by the caller',
  })
  @ApiOkResponse({ type: OrgActivityResponse })
  org(@CurrentActor() actor: Actor, @Query() query: Record<string, unknown>): Promise<OrgActivityResponse> {
    return this.queries.execute(new ListOrgActivityQuery(actor, query));
  }

  @Get('issues/:issueId/activity')
  @ApiOperation({ summary: 'Timeline of one issue, newest first (issue read access)' })
  @IssueAddressed()
  @ApiQuery({ name: 'limit', required: false, description: 'Page size, default 50, clamped to 1..100' })
  @ApiQuery({ name: 'offset', required: false, description: 'Items to skip, default 0' })
  @ApiOkResponse({ type: IssueActivityResponse })
  issue(
    @CurrentActor() actor: Actor,
    @Param('issueId', UuidParamPipe) issueId: string,
    @Query() query: Record<string, unknown>,
  ): Promise<IssueActivityResponse> {
    return this.queries.execute(new ListIssueActivityQuery(actor, issueId, query));
  }
}
