import { Injectable } from '@nestjs/common';
import type { Actor } from '../../common/auth/principal';
import { ExecutionAttentionReader } from '../executions/execution-attention.reader';
import type { Visibility } from './heartbeat.repository';

/** One execution-attention entry as the heartbeat carries it (open request or resolved answer). */
export interface ExecutionAttentionEntry {
  id: string;
  [field: string]: unknown;
}

/**
 * The seam through which agent executions feed the heartbeat: `ExecutionsAttention` reads the
 * executions module's attention queue. Entries must already be filtered by the caller's current
 * project access, at most `limit` of each, in a stable order. (Workflow verification items are
 * `verification.completed` notifications: they come with the notification attention.)
 */
export abstract class ExecutionAttentionProvider {
  /** `v`: the caller's visibility as the heartbeat decided it (readable project ids, null = every project; projectless issues). */
  abstract forAgent(actor: Actor, limit: number, v: Visibility): Promise<{ open: ExecutionAttentionEntry[]; resolved_unread: ExecutionAttentionEntry[] }>;
}

@Injectable()
export class ExecutionsAttention extends ExecutionAttentionProvider {
  constructor(private readonly reader: ExecutionAttentionReader) {
    super();
  }

  /** The caller's open attention requests and unacknowledged answers (resolved first), readable issues only. */
  async forAgent(actor: Actor, limit: number, v: Visibility): Promise<{ open: ExecutionAttentionEntry[]; resolved_unread: ExecutionAttentionEntry[] }> {
    // the heartbeat's visibility is the access policy's answer ExecutionAccess.visibility would read again
    const { open, resolved_unread } = await this.reader.forAgent(actor, limit, { projects: v.readable ?? 'all', projectless: v.projectless });
    return { open: open.map((e) => ({ ...e })), resolved_unread: resolved_unread.map((e) => ({ ...e })) };
  }
}
