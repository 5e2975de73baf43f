import { Injectable } from '@nestjs/common';
import type { Actor } from '../../common/auth/principal';
import { ExecutionAttentionReader } from '../executions/execution-attention.reader';
import { VerificationItemsReader } from '../github/verification-items.reader';

/** One execution-attention entry as the heartbeat carries it (open request or resolved answer). */
export interface ExecutionAttentionEntry {
  id: string;
  [field: string]: unknown;
}

/** A verification item (`verification.completed` attention) of provider workflow verification (src/modules/github). */
export interface VerificationItem {
  id: string;
  event_type: 'verification.completed';
  [field: string]: unknown;
}

/**
 * The seam through which agent executions feed the heartbeat: `ExecutionsAttention` reads the
 * executions module's attention queue; verification items come from the GitHub integration
 * (VerificationItemsReader: completed workflow runs on a linked PR's exact head, attention mode only). Entries must already be filtered by the caller's
 * current project access, at most `limit` of each, in a stable order.
 */
export abstract class ExecutionAttentionProvider {
  abstract forAgent(actor: Actor, limit: number): Promise<{ open: ExecutionAttentionEntry[]; resolved_unread: ExecutionAttentionEntry[] }>;
  /** REST heartbeat `verification.completed` items (provider workflow verification). */
  abstract verificationItems(actor: Actor, limit: number): Promise<VerificationItem[]>;
}

@Injectable()
export class ExecutionsAttention extends ExecutionAttentionProvider {
  constructor(
    private readonly reader: ExecutionAttentionReader,
    private readonly verification: VerificationItemsReader,
  ) {
    super();
  }

  /** The caller's open attention requests and unacknowledged answers (resolved first), readable issues only. */
  async forAgent(actor: Actor, limit: number): Promise<{ open: ExecutionAttentionEntry[]; resolved_unread: ExecutionAttentionEntry[] }> {
    const { open, resolved_unread } = await this.reader.forAgent(actor, limit);
    return { open: open.map((e) => ({ ...e })), resolved_unread: resolved_unread.map((e) => ({ ...e })) };
  }
  /** The caller's unacknowledged `verification.completed` items (GitHub workflow verification, attention mode), readable issues only. */
  async verificationItems(actor: Actor, limit: number): Promise<VerificationItem[]> {
    return (await this.verification.forMember(actor, limit)).map((v) => ({ ...v }));
  }
}
