import { z } from 'zod';
import { CreateIssueCommand, CreateIssueDto, GetIssueQuery, UpdateIssueCommand, UpdateIssueDto } from '../../issues/issues.commands';
import { ListIssuesQuery, parseIssueListParams } from '../../issue-list/issue-list.queries';
import { defineTool } from '../mcp-tool';
import { asQuery, issueRef, limit, offset, pick, uuid } from './shared';

const ISSUE_FIELDS = {
  description: z.string().max(100_000).nullable().optional().describe('Markdown or rich text'),
  status: z.string().min(1).max(100).optional().describe('A board column key of the project (e.g. todo, in_progress, done) or cancelled'),
  priority: z.number().int().min(0).max(3).optional().describe('0 urgent, 1 high, 2 medium, 3 low'),
  assignee_id: uuid('Member id of the primary assignee').nullable().optional(),
  assignee_ids: z.array(z.uuid()).max(50).optional().describe('Member ids of all assignees (replaces the set)'),
  milestone_id: uuid('Milestone id').nullable().optional(),
  team_id: uuid('Team id').nullable().optional(),
  start_date: z.string().nullable().optional().describe('YYYY-MM-DD'),
  due_date: z.string().nullable().optional().describe('YYYY-MM-DD'),
};
const ISSUE_KEYS = ['title', 'project_id', ...Object.keys(ISSUE_FIELDS)];
const LIST_KEYS = ['status', 'priority', 'projectId', 'assigneeId', 'milestoneId', 'q', 'open', 'includeArchived', 'orderBy', 'orderDir', 'limit', 'offset'];

/** Issues: the same handlers as GET/POST/PATCH /api/orgs/{id}/issues[/{issueId}]. */
export const ISSUE_TOOLS = [
  defineTool({
    name: 'list_issues',
    title: 'List issues',
    description: 'Issues the agent can read, newest first, with the REST list filters. Returns { issues, total, limit, offset }.',
    readOnly: true,
    bus: 'query',
    input: {
      project_id: uuid('Only issues of this project').optional(),
      status: z.string().max(500).optional().describe('One status or a comma-separated list'),
      priority: z.string().max(20).optional().describe('0..3 or a comma-separated list'),
      assignee_id: z.string().max(40).optional().describe('Member id, `me` or `unassigned`'),
      milestone_id: uuid('Only issues of this milestone').optional(),
      q: z.string().max(500).optional().describe('Text in title or description'),
      open: z.boolean().optional().describe('true: exclude done, cancelled and archived issues'),
      include_archived: z.boolean().optional(),
      order_by: z.enum(['created_at', 'updated_at', 'priority', 'due_date', 'title', 'status']).optional(),
      order_dir: z.enum(['asc', 'desc']).optional(),
      limit,
      offset,
    },
    dispatch: (ctx, a) =>
      new ListIssuesQuery(
        ctx.actor,
        parseIssueListParams(
          asQuery(
            {
              status: a.status,
              priority: a.priority,
              projectId: a.project_id,
              assigneeId: a.assignee_id,
              milestoneId: a.milestone_id,
              q: a.q,
              open: a.open,
              includeArchived: a.include_archived,
              orderBy: a.order_by,
              orderDir: a.order_dir,
              limit: a.limit,
              offset: a.offset,
            },
            LIST_KEYS,
          ),
        ),
      ),
  }),
  defineTool({
    name: 'get_issue',
    title: 'Get an issue',
    description: 'Issue detail by any reference form (UUID, number, #number, PREFIX-number). Returns { issue }.',
    readOnly: true,
    bus: 'query',
    input: { issue: issueRef },
    dispatch: (ctx, a) => new GetIssueQuery(ctx.actor, a.issue, undefined),
  }),
  defineTool({
    name: 'create_issue',
    title: 'Create an issue',
    description: 'Creates an issue (edit access on the project; projectless issues for non-guests). Returns { issue }.',
    bus: 'command',
    input: { title: z.string().min(1).max(500), project_id: uuid('Project of the issue').nullable().optional(), ...ISSUE_FIELDS },
    dispatch: async (ctx, a) => new CreateIssueCommand(ctx.actor, await ctx.dto(CreateIssueDto, pick(a, ISSUE_KEYS))),
  }),
  defineTool({
    name: 'update_issue',
    title: 'Update an issue',
    description: 'Changes fields of an issue (edit access). `comment_body` also adds a comment. Returns the REST update response.',
    bus: 'command',
    input: {
      issue: issueRef,
      title: z.string().min(1).max(500).optional(),
      project_id: uuid('Move to this project').nullable().optional(),
      ...ISSUE_FIELDS,
      comment_body: z.string().max(100_000).optional().describe('Adds a comment in the same change'),
    },
    dispatch: async (ctx, a) =>
      new UpdateIssueCommand(ctx.actor, await ctx.issueId(a.issue), await ctx.dto(UpdateIssueDto, pick(a, [...ISSUE_KEYS, 'comment_body']))),
  }),
];
