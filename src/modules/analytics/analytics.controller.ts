import { Controller, Get, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOkResponse, ApiOperation, ApiParam, ApiQuery, ApiTags } from '@nestjs/swagger';
import { CurrentActor, OrgScoped } from '../../common/auth/decorators';
import type { Actor } from '../../common/auth/principal';
import { AnalyticsResponse } from './analytics.response';
import { GetAnalyticsQuery } from './queries/get-analytics/get-analytics.query';

const BOUND = 'A calendar date `YYYY-MM-DD` or an RFC 3339 timestamp with `Z` or an offset';

@ApiTags('analytics')
@ApiParam({ name: 'id', description: 'Organization id', schema: { type: 'string', format: 'uuid' } })
@OrgScoped()
@Controller('api/orgs/:id/analytics')
export class AnalyticsController {
  constructor(private readonly queries: QueryBus) {}

  @Get()
  @ApiOperation({
    summary: 'Work analytics over a range of at most 366 days',
    description:
      'Aggregates over the issues the caller can read (projectless ones for non-guests), from the issues and the status moves of their timeline: ' +
      'per UTC day created, completed, cancelled and open at the end of the day; cycle time (first `in_progress` to `done`) and lead time ' +
      '(created to `done`) p50/p90 in hours; completions by assignee type (people, agents, unassigned). "Completed" and "cancelled" count ' +
      'issues whose current status is `done` / `cancelled`, at the time they got there. Partial dates, timestamps without an offset, ' +
      'dates that do not exist, reversed and longer ranges are 400; an unreadable `projectId` or an unknown `teamId` is 404.',
  })
  @ApiQuery({ name: 'from', required: true, schema: { type: 'string' }, description: `${BOUND}; inclusive` })
  @ApiQuery({ name: 'to', required: true, schema: { type: 'string' }, description: `${BOUND}; a date includes its whole day` })
  @ApiQuery({ name: 'projectId', required: false, schema: { type: 'string', format: 'uuid' } })
  @ApiQuery({ name: 'teamId', required: false, schema: { type: 'string', format: 'uuid' } })
  @ApiOkResponse({ type: AnalyticsResponse })
  get(@CurrentActor() actor: Actor, @Query() query: Record<string, unknown>): Promise<AnalyticsResponse> {
    return this.queries.execute(new GetAnalyticsQuery(actor, query));
  }
}
