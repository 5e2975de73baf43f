import { Injectable } from '@nestjs/common';
import type { Actor } from '../../common/auth/principal';
import { AttentionRepository } from './attention.repository';
import { ExecutionAccess, type ExecutionVisibility } from './execution-access.service';

/** One attention entry as the heartbeat's `execution_attention` shows it (bounded fields, no hashes). */
export interface ExecutionAttentionEntry {
  id: string;
  execution_id: string;
  issue_id: string;
  state: 'open' | 'resolved';
  version: number;
  title: string;
  /** The human's answer (resolved entries only), at most 4000 characters. */
  answer: string | null;
  created_at: string;
  resolved_at: string | null;
  /** Where the requester acknowledges the receipt (resolved entries) or reads the item (open). */
  ack_endpoint: string | null;
  item_endpoint: string;
}

export interface ExecutionAttention {
  open: ExecutionAttentionEntry[];
  resolved_unread: ExecutionAttentionEntry[];
}

/**
 * The read the heartbeat uses for `execution_attention` (public to other modules): the caller's
 * own attention requests that are open, and resolved answers it has not acknowledged, on issues it
 * can read NOW (current project access; projectless issues for non-guests). At most `limit` rows
 * in total (1..100, default 25): resolved answers first (newest resolution first), then open
 * requests (newest first). Heartbeat paging does not consume receipts.
 */
@Injectable()
export class ExecutionAttentionReader {
  constructor(
    private readonly attention: AttentionRepository,
    private readonly guard: ExecutionAccess,
  ) {}

  /**
   * `visibility`: what the caller reads, when the caller already decided it (the heartbeat: its
   * Visibility, the same access policy answer as ExecutionAccess.visibility); else read here.
   */
  async forAgent(actor: Actor, limit = 25, visibility?: ExecutionVisibility): Promise<ExecutionAttention> {
    const n = Math.max(1, Math.min(100, Math.floor(limit)));
    const vis = visibility ?? (await this.guard.visibility(actor));
    if (vis.projects !== 'all' && !vis.projects.length && !vis.projectless) return { open: [], resolved_unread: [] };
    const rows = await this.attention.requesterQueue(actor.orgId, actor.memberId, vis.projects, vis.projectless, n);
    const out: ExecutionAttention = { open: [], resolved_unread: [] };
    for (const r of rows) {
      const base = `/api/orgs/${actor.orgId}/attention-items/${r.id}`;
      const entry: ExecutionAttentionEntry = {
        id: r.id,
        execution_id: r.execution_id,
        issue_id: r.issue_id,
        state: r.state === 'resolved' ? 'resolved' : 'open',
        version: r.version,
        title: r.title,
        answer: r.state === 'resolved' ? r.answer : null,
        created_at: new Date(r.created_at).toISOString(),
        resolved_at: r.resolved_at ? new Date(r.resolved_at).toISOString() : null,
        ack_endpoint: r.state === 'resolved' ? `${base}/acknowledge` : null,
        item_endpoint: base,
      };
      (r.state === 'resolved' ? out.resolved_unread : out.open).push(entry);
    }
    return out;
  }
}
