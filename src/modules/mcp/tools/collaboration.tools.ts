import { z } from 'zod';
import { CreateCommentCommand, CreateCommentDto, ListCommentsQuery } from '../../comments/comments.commands';
import { AddDependencyCommand, AddDependencyDto, RemoveDependencyCommand } from '../../dependencies/dependencies.commands';
import {
  IssueInitiativeLinkDto,
  LinkIssueInitiativeCommand,
  ListInitiativesQuery,
  ListTargetsQuery,
  UpdateTargetCommand,
  UpdateTargetDto,
} from '../../initiatives/initiatives.commands';
import { ListMilestonesQuery } from '../../milestones/milestones.commands';
import { defineTool } from '../mcp-tool';
import { asQuery, issueRef, limit, offset, pick, uuid } from './shared';

/** Comments, dependencies, initiatives, targets and milestones: the same handlers as their REST routes. */
export const COLLABORATION_TOOLS = [
  defineTool({
    name: 'add_comment',
    title: 'Comment on an issue',
    description: 'Adds a comment (write access to the issue). Returns { comment }.',
    bus: 'command',
    input: {
      issue: issueRef,
      body: z.string().min(1).max(100_000).describe('Markdown or plain text'),
      mentions: z
        .array(z.object({ member_id: z.uuid() }))
        .max(50)
        .optional(),
      reply_to_comment_id: uuid('Comment of the same issue this one replies to').optional(),
    },
    dispatch: async (ctx, a) =>
      new CreateCommentCommand(ctx.actor, await ctx.issueId(a.issue), await ctx.dto(CreateCommentDto, pick(a, ['body', 'mentions', 'reply_to_comment_id']))),
  }),
  defineTool({
    name: 'list_comments',
    title: 'List comments of an issue',
    description: 'Comments of an issue, oldest first. Returns { comments, ... }.',
    readOnly: true,
    bus: 'query',
    input: { issue: issueRef, limit, offset },
    dispatch: async (ctx, a) => new ListCommentsQuery(ctx.actor, await ctx.issueId(a.issue), asQuery(a, ['limit', 'offset'])),
  }),
  defineTool({
    name: 'add_dependency',
    title: 'Add a dependency',
    description: 'Records that `issue` is blocked by `blocked_by` (or blocks `blocking`). Returns { dependency }.',
    bus: 'command',
    input: {
      issue: issueRef,
      blocked_by: issueRef.optional().describe('The issue that blocks `issue`'),
      blocking: issueRef.optional().describe('The issue that `issue` blocks'),
      release_column_id: uuid("A board column of the blocking issue's project (default: its done column)").optional(),
    },
    dispatch: async (ctx, a) => {
      const body: Record<string, unknown> = { release_column_id: a.release_column_id };
      if (a.blocked_by !== undefined) body.blocked_by_issue_id = await ctx.issueId(a.blocked_by);
      if (a.blocking !== undefined) body.blocking_issue_id = await ctx.issueId(a.blocking);
      return new AddDependencyCommand(ctx.actor, await ctx.issueId(a.issue), { ...(await ctx.dto(AddDependencyDto, body)) });
    },
    result: (dependency) => ({ dependency }),
  }),
  defineTool({
    name: 'remove_dependency',
    title: 'Remove a dependency',
    description: 'Removes a dependency of the issue by its id. Returns { success }.',
    bus: 'command',
    input: { issue: issueRef, dependency_id: uuid('The dependency id') },
    dispatch: async (ctx, a) => new RemoveDependencyCommand(ctx.actor, await ctx.issueId(a.issue), a.dependency_id),
    result: () => ({ success: true }),
  }),
  defineTool({
    name: 'list_initiatives',
    title: 'List initiatives',
    description: 'Initiatives the agent can read. Returns { initiatives, ... }.',
    readOnly: true,
    bus: 'query',
    input: { status: z.string().max(50).optional(), limit, offset },
    dispatch: (ctx, a) => new ListInitiativesQuery(ctx.actor, asQuery(a, ['status', 'limit', 'offset'])),
  }),
  defineTool({
    name: 'link_issue_to_initiative',
    title: 'Link an issue to an initiative',
    description: "Links the issue to the initiative (edit on the issue's project, which must be linked to the initiative). Returns { issue_initiative }.",
    bus: 'command',
    input: { issue: issueRef, initiative_id: uuid('The initiative id') },
    dispatch: async (ctx, a) =>
      new LinkIssueInitiativeCommand(ctx.actor, await ctx.issueId(a.issue), await ctx.dto(IssueInitiativeLinkDto, { initiative_id: a.initiative_id })),
    result: (r) => (r as { body: Record<string, unknown> }).body,
  }),
  defineTool({
    name: 'list_targets',
    title: 'List initiative targets',
    description: 'Targets of an initiative. Returns { targets }.',
    readOnly: true,
    bus: 'query',
    input: { initiative_id: uuid('The initiative id') },
    dispatch: (ctx, a) => new ListTargetsQuery(ctx.actor, a.initiative_id),
  }),
  defineTool({
    name: 'update_target',
    title: 'Update an initiative target',
    description: 'Changes fields of a target (e.g. current_value, status). Returns { target }.',
    bus: 'command',
    input: {
      initiative_id: uuid('The initiative id'),
      target_id: uuid('The target id'),
      title: z.string().min(1).max(500).optional(),
      description: z.string().max(10_000).nullable().optional(),
      status: z.enum(['active', 'completed', 'cancelled']).optional(),
      current_value: z.number().nullable().optional(),
      target_value: z.number().nullable().optional(),
      baseline_value: z.number().nullable().optional(),
      target_date: z.string().nullable().optional().describe('YYYY-MM-DD'),
    },
    dispatch: async (ctx, a) =>
      new UpdateTargetCommand(
        ctx.actor,
        a.initiative_id,
        a.target_id,
        await ctx.dto(UpdateTargetDto, pick(a, ['title', 'description', 'status', 'current_value', 'target_value', 'baseline_value', 'target_date'])),
      ),
  }),
  defineTool({
    name: 'list_milestones',
    title: 'List milestones of a project',
    description: 'Milestones of a readable project. Returns { milestones }.',
    readOnly: true,
    bus: 'query',
    input: { project_id: uuid('The project id') },
    dispatch: (ctx, a) => new ListMilestonesQuery(ctx.actor, a.project_id),
  }),
];
