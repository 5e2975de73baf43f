import { z } from 'zod';
import { AckHeartbeatCommand, GetHeartbeatQuery } from '../../heartbeat/heartbeat.commands';
import { defineTool } from '../mcp-tool';
import { asQuery } from './shared';

const CURSOR = z.string().min(1).max(4096);

/** The agent heartbeat: the same handlers as GET /api/orgs/{id}/heartbeat and POST .../heartbeat/ack. */
export const HEARTBEAT_TOOLS = [
  defineTool({
    name: 'heartbeat',
    title: 'Heartbeat: what to do next',
    description:
      'The compact briefing of the agent (attention_items, attention_summary, signal_groups, recommended_action, counts, delta, page, execution_attention), at most max_bytes (≤ 16,384) per page. Page on with page.next_cursor as `cursor`; after the terminal page acknowledge page.ack_cursor with heartbeat_ack, then pass it as `since` to get only what changed.',
    readOnly: true,
    bus: 'query',
    input: {
      cursor: CURSOR.optional().describe('page.next_cursor of the previous page'),
      since: CURSOR.optional().describe('An acknowledged ack_cursor: only new, changed or escalated items'),
      max_bytes: z.number().int().min(1).max(16_384).optional().describe('Byte budget of the page (default and max 16,384)'),
    },
    // workflow verification attention (`verification.completed`) stays on REST and the CLI (interface.md "Heartbeat")
    dispatch: (ctx, a) => new GetHeartbeatQuery(ctx.actor, asQuery(a, ['cursor', 'since', 'max_bytes']), 'mcp'),
  }),
  defineTool({
    name: 'heartbeat_ack',
    title: 'Acknowledge a heartbeat',
    description: "Acknowledges a complete compact run with the terminal page's ack_cursor (idempotent). Returns the acknowledgement.",
    bus: 'command',
    input: { cursor: CURSOR.describe('page.ack_cursor of the terminal page') },
    dispatch: (ctx, a) => new AckHeartbeatCommand(ctx.actor, { cursor: a.cursor }),
  }),
];
