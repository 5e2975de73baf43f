import { Injectable } from '@nestjs/common';
import type { Actor } from '../../common/auth/principal';

/** One execution-attention entry as the heartbeat carries it (open request or resolved answer). */
export interface ExecutionAttentionEntry {
  id: string;
  [field: string]: unknown;
}

/** A verification item (`verification.completed` attention) once provider integrations exist. */
export interface VerificationItem {
  id: string;
  event_type: 'verification.completed';
  [field: string]: unknown;
}

/**
 * The seam through which agent executions feed the heartbeat. The executions module (being built
 * in src/modules/executions) provides its own implementation under this token; until then this
 * default returns nothing, and the heartbeat's `execution_attention` stays `{ open: [],
 * resolved_unread: [] }` with the same shape. Entries must already be filtered by the caller's
 * current project access, at most `limit` of each, in a stable order.
 */
export abstract class ExecutionAttentionProvider {
  abstract forAgent(actor: Actor, limit: number): Promise<{ open: ExecutionAttentionEntry[]; resolved_unread: ExecutionAttentionEntry[] }>;
  /** REST heartbeat `verification.completed` items (provider workflow verification); none until integrations land. */
  abstract verificationItems(actor: Actor, limit: number): Promise<VerificationItem[]>;
}

@Injectable()
export class NoExecutionAttention extends ExecutionAttentionProvider {
  async forAgent(): Promise<{ open: ExecutionAttentionEntry[]; resolved_unread: ExecutionAttentionEntry[] }> {
    return { open: [], resolved_unread: [] };
  }
  async verificationItems(): Promise<VerificationItem[]> {
    return [];
  }
}
