import { z } from 'zod';
import {
  AcknowledgeAttentionCommand,
  AcknowledgeAttentionDto,
  CreateAttentionCommand,
  CreateAttentionDto,
  CreateExecutionCommand,
  CreateExecutionDto,
  TransitionExecutionCommand,
  TransitionExecutionDto,
} from '../../executions/executions.commands';
import { defineTool } from '../mcp-tool';
import { issueRef, pick, uuid } from './shared';

/** Keyed writes answer `{ status, body }` (the original status on a replay): the tool result is the body. */
const bodyOf = (value: unknown): Record<string, unknown> => ((value as { body?: Record<string, unknown> })?.body ?? {}) as Record<string, unknown>;
const idempotencyKey = z.string().min(1).max(200).describe('Client key of this write: a retry with the same key and body returns the first answer');
const text = (max: number, what: string) => z.string().max(max).describe(what);

/** Agent executions and attention requests: the same handlers as their REST routes. */
export const EXECUTION_TOOLS = [
  defineTool({
    name: 'create_execution',
    title: 'Start an execution record',
    description: 'Records a piece of agent work on an issue (state `assigned`). Returns { execution }.',
    bus: 'command',
    input: {
      issue: issueRef,
      agent_member_id: uuid('The agent doing the work (default: the calling agent)').optional(),
      idempotency_key: idempotencyKey,
      harness_kind: text(64, 'What runs the work (no credentials or paths)').optional(),
      external_run_id: text(200, 'Id of the run in the harness (no credentials or paths)').optional(),
      reason: text(2000, 'Why').optional(),
      summary: text(4000, 'Summary').optional(),
    },
    dispatch: async (ctx, a) =>
      new CreateExecutionCommand(
        ctx.actor,
        await ctx.dto(CreateExecutionDto, {
          ...pick(a, ['idempotency_key', 'harness_kind', 'external_run_id', 'reason', 'summary']),
          issue_id: await ctx.issueId(a.issue),
          agent_member_id: a.agent_member_id ?? ctx.actor.memberId,
        }),
      ),
    result: bodyOf,
  }),
  defineTool({
    name: 'transition_execution',
    title: 'Move an execution to another state',
    description:
      'assigned → running | waiting | cancelled; running → waiting | completed | failed | cancelled; waiting → running | cancelled. Fenced by expected_state_version (409 STALE_STATE_VERSION). Returns { execution }.',
    bus: 'command',
    input: {
      execution_id: uuid('The execution'),
      expected_state_version: z.number().int().min(0).describe('state_version the caller last read'),
      to_state: z.enum(['running', 'waiting', 'completed', 'failed', 'cancelled']),
      idempotency_key: idempotencyKey,
      reason: text(2000, 'Why').optional(),
      summary: text(4000, 'Summary').optional(),
      outcome: text(4000, 'Outcome (completed)').optional(),
      failure: text(4000, 'What failed (failed)').optional(),
    },
    dispatch: async (ctx, a) =>
      new TransitionExecutionCommand(
        ctx.actor,
        a.execution_id,
        await ctx.dto(TransitionExecutionDto, pick(a, ['expected_state_version', 'to_state', 'idempotency_key', 'reason', 'summary', 'outcome', 'failure'])),
      ),
    result: bodyOf,
  }),
  defineTool({
    name: 'request_attention',
    title: 'Ask a human and wait',
    description: 'Raises an attention request on an execution (it enters needs_human until a human resolves or it is cancelled). Returns { attention_item }.',
    bus: 'command',
    input: {
      execution_id: uuid('The execution'),
      idempotency_key: idempotencyKey,
      title: z.string().min(1).max(200),
      question: z.string().min(1).max(4000),
      options: z.array(z.string().min(1).max(200)).max(10).optional(),
      expected_state_version: z.number().int().min(0).optional(),
    },
    dispatch: async (ctx, a) =>
      new CreateAttentionCommand(
        ctx.actor,
        a.execution_id,
        await ctx.dto(CreateAttentionDto, pick(a, ['idempotency_key', 'title', 'question', 'options', 'expected_state_version'])),
      ),
    result: bodyOf,
  }),
  defineTool({
    name: 'acknowledge_attention',
    title: 'Acknowledge an answer',
    description: "Acknowledges a resolved attention request's answer (the requesting agent), fenced by expected_version. Returns { attention_item }.",
    bus: 'command',
    input: {
      item_id: uuid('The attention item'),
      expected_version: z.number().int().min(0),
      idempotency_key: idempotencyKey.optional(),
    },
    dispatch: async (ctx, a) =>
      new AcknowledgeAttentionCommand(ctx.actor, a.item_id, await ctx.dto(AcknowledgeAttentionDto, pick(a, ['expected_version', 'idempotency_key']))),
    result: bodyOf,
  }),
];
