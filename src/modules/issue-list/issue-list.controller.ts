import { Controller, Get, Query, Req, Res } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBadRequestResponse, ApiExtraModels, ApiOkResponse, ApiOperation, ApiParam, ApiQuery, ApiTags, getSchemaPath } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CurrentActor, OrgScoped } from '../../common/auth/decorators';
import { serializeOnce } from '../../common/http/serialize-once';
import type { Actor } from '../../common/auth/principal';
import { CompactIssueListResponse, IssueListResponse } from './issue-list.response';
import { ORDER_FIELDS, parseIssueListParams, parseIssueSearchParams, SEARCH_Q_MAX, SEARCH_WORDS_MAX } from './list-params';
import { ListIssuesQuery } from './queries/list-issues/list-issues.query';
import { SearchIssuesQuery } from './queries/search-issues/search-issues.query';

/** The organization-wide issue list and issue search. See IssueListModule for the rules. */
@ApiTags('issues')
@ApiParam({ name: 'id', description: 'Organization id' })
@ApiExtraModels(IssueListResponse, CompactIssueListResponse)
@OrgScoped()
@Controller('api/orgs/:id/issues')
export class IssueListController {
  constructor(private readonly queries: QueryBus) {}

  @Get()
  @ApiOperation({
    summary: 'List the issues the caller can read',
    description:
      'Filters combine with AND. Lists are comma-separated (`status=todo,in_progress`); bracketed keys (`status[]=x`) and repeated keys are 400. ' +
      'Every invalid value is a 400 with a readable message. Unreadable or foreign `projectId` is 404.',
  })
  @ApiQuery({ name: 'status', required: false, description: 'One status or a comma-separated list (built-ins or board column keys)' })
  @ApiQuery({ name: 'priority', required: false, description: '0..3, or a comma-separated list' })
  @ApiQuery({ name: 'projectId', required: false, description: 'Project UUID (alias project_id); unreadable or unknown → 404' })
  @ApiQuery({ name: 'assigneeId', required: false, description: 'Member UUID (primary or any of the assignees), `me` or `unassigned` (alias assignee_id)' })
  @ApiQuery({ name: 'teamId', required: false, description: 'Team UUID (alias team_id)' })
  @ApiQuery({ name: 'milestoneId', required: false, description: 'Milestone UUID (alias milestone_id)' })
  @ApiQuery({ name: 'labelId', required: false, description: 'Label UUID or comma-separated UUIDs: issues with any of them (alias label_id)' })
  @ApiQuery({ name: 'parentId', required: false, description: 'Only subtasks of this issue (alias parent_id)' })
  @ApiQuery({
    name: 'q',
    required: false,
    description:
      'Case-insensitive text (at most 500 characters; `%` and `_` match literally): title and description on full lists; title or issue number (`12`, `#12`, `KEY-12`) on compact views',
  })
  @ApiQuery({
    name: 'open',
    required: false,
    enum: ['true', 'false'],
    description: '`true`: excludes done, cancelled and archived issues (keeps custom statuses); wins over includeArchived',
  })
  @ApiQuery({
    name: 'includeArchived',
    required: false,
    enum: ['true', 'false'],
    description: 'Include archived issues (default false; alias include_archived)',
  })
  @ApiQuery({ name: 'orderBy', required: false, enum: [...ORDER_FIELDS], description: 'Sort field (default created_at); ties broken by id' })
  @ApiQuery({ name: 'orderDir', required: false, enum: ['asc', 'desc'], description: 'Sort direction (default desc)' })
  @ApiQuery({ name: 'view', required: false, enum: ['board', 'list'], description: 'Compact items (CompactIssueResponse: no identifier / projectSlug)' })
  @ApiQuery({ name: 'assignee', required: false, description: '`unassigned`, `me` or a member UUID (multi-assignee links included)' })
  @ApiQuery({ name: 'initiativeId', required: false, description: 'Initiative UUID: only issues linked to it' })
  @ApiQuery({ name: 'scope', required: false, enum: ['mine', 'blocked'], description: '`mine`: assigned to the caller; `blocked`: has an unsatisfied blocker' })
  @ApiQuery({ name: 'viewId', required: false, description: 'Custom view UUID (readable project): its filters and sort apply; request parameters override' })
  @ApiQuery({ name: 'limit', required: false, description: 'Page size, default 25, values above 100 are clamped (the response reports the effective limit)' })
  @ApiQuery({ name: 'offset', required: false, description: 'Rows to skip, default 0' })
  @ApiQuery({
    name: 'shape',
    required: false,
    enum: ['envelope', 'legacy'],
    description: '`envelope` returns `{ resource, items, total, limit, offset, nextOffset, truncated, hint }`',
  })
  @ApiQuery({ name: 'response_shape', required: false, enum: ['cli', 'legacy'], description: 'Alias: `cli` = `shape=envelope`' })
  @ApiOkResponse({
    description: 'Legacy `{ issues, total, limit, offset }` (compact items with `view`), or the envelope with `shape=envelope`',
    schema: { anyOf: [{ $ref: getSchemaPath(IssueListResponse) }, { $ref: getSchemaPath(CompactIssueListResponse) }] },
  })
  list(
    @CurrentActor() actor: Actor,
    @Query() query: Record<string, unknown>,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Record<string, unknown>> {
    // a kept page is the same response object again: its JSON (and gzip) bytes are made once
    serializeOnce(req, reply);
    return this.queries.execute(new ListIssuesQuery(actor, parseIssueListParams(query)));
  }

  // A static segment: Fastify's router matches it before the `:issueId` parameter of IssuesController, whatever the registration order.
  @Get('search')
  @ApiOperation({
    summary: 'Search the issues the caller can read',
    description:
      'Full-text search over titles, descriptions and comments (every word required, each word of two characters or more matched as a prefix: ' +
      '`auth` finds `authentication`; titles also match by substring from three letters or digits). A `q` that is an issue reference ' +
      '(UUID, `12`, `#12`, `<ORG_PREFIX>-12`, `TSK-12`, `<PROJECT_KEY>-12`, as on the issue detail route) puts the issues it names first. ' +
      'Order: the referenced issues, then title matches, description matches, comment-only matches, each by relevance (ts_rank), then ' +
      'most recently updated. Visibility as the list: readable projects, projectless issues for non-guests; archived issues only with ' +
      '`includeArchived=true`; deleted comments never match. Items are the full list items. At most 1,000 matches of each kind ' +
      '(issue text, comments, title substrings) are ranked; `total` counts the matches read.',
  })
  @ApiQuery({
    name: 'q',
    required: true,
    description: `Search text: required, not blank, at most ${SEARCH_Q_MAX} characters and ${SEARCH_WORDS_MAX} words, at least one letter or digit, no control characters (else 400)`,
  })
  @ApiQuery({
    name: 'includeArchived',
    required: false,
    enum: ['true', 'false'],
    description: 'Include archived issues (default false; alias include_archived)',
  })
  @ApiQuery({ name: 'limit', required: false, description: 'Page size, default 25, values above 100 are clamped (the response reports the effective limit)' })
  @ApiQuery({ name: 'offset', required: false, description: 'Rows to skip, default 0' })
  @ApiQuery({
    name: 'shape',
    required: false,
    enum: ['envelope', 'legacy'],
    description: '`envelope` returns `{ resource, items, total, limit, offset, nextOffset, truncated, hint }`',
  })
  @ApiQuery({ name: 'response_shape', required: false, enum: ['cli', 'legacy'], description: 'Alias: `cli` = `shape=envelope`' })
  @ApiOkResponse({ type: IssueListResponse, description: 'Legacy `{ issues, total, limit, offset }`, or the envelope' })
  @ApiBadRequestResponse({
    description: '`q` missing, blank, too long, not valid text or without a letter or digit; bad paging or shape values',
    schema: { $ref: '#/components/schemas/Error' },
  })
  search(@CurrentActor() actor: Actor, @Query() query: Record<string, unknown>): Promise<Record<string, unknown>> {
    return this.queries.execute(new SearchIssuesQuery(actor, parseIssueSearchParams(query)));
  }
}
