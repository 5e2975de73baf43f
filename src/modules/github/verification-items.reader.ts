import { Injectable } from '@nestjs/common';
import { AccessPolicyService } from '../../common/access/access-policy.service';
import type { Actor } from '../../common/auth/principal';
import { ObservationsRepository } from './observations.repository';

/** One `verification.completed` attention item (bounded identifiers only: no payload, secret, log or thread id). */
export interface VerificationAttention {
  id: string;
  event_type: 'verification.completed';
  severity: 'info' | 'warning';
  title: string;
  resource_type: 'issue';
  resource_id: string;
  action_kind: 'resume_agent_thread' | 'review_issue';
  verification: {
    verificationEventId: string;
    repository: string;
    repository_id: number | null;
    pull_request: number;
    workflow_run_id: number;
    run_attempt: number;
    head_sha: string;
    workflow: string | null;
    conclusion: string;
    run_url: string;
    next_action: string;
  };
  created_at: string;
}

/**
 * The caller's unacknowledged `verification.completed` items, filtered by current issue access
 * (an item on an issue the caller can no longer read is left out), newest first, at most `limit`.
 * Fed to the heartbeat through its verification port.
 */
@Injectable()
export class VerificationItemsReader {
  constructor(
    private readonly observations: ObservationsRepository,
    private readonly access: AccessPolicyService,
  ) {}

  async forMember(actor: Actor, limit: number): Promise<VerificationAttention[]> {
    if (limit <= 0) return [];
    const rows = await this.observations.unreadVerifications(actor.orgId, actor.memberId, limit * 2);
    const out: VerificationAttention[] = [];
    for (const r of rows) {
      if (!(await this.access.issueLevel(actor, r.project_id))) continue;
      const passed = r.conclusion === 'success' || r.conclusion === 'neutral';
      out.push({
        id: r.id,
        event_type: 'verification.completed',
        severity: passed ? 'info' : 'warning',
        title: `Workflow ${r.workflow_name ?? 'run'} ${r.conclusion} on ${r.repo_key}#${r.pr_number}`,
        resource_type: 'issue',
        resource_id: r.issue_id,
        action_kind: actor.memberType === 'agent' ? 'resume_agent_thread' : 'review_issue',
        verification: {
          verificationEventId: r.verification_event_id,
          repository: r.repo_key,
          repository_id: r.repository_id === null ? null : Number(r.repository_id),
          pull_request: r.pr_number,
          workflow_run_id: Number(r.run_id),
          run_attempt: r.run_attempt,
          head_sha: r.head_sha,
          workflow: r.workflow_name,
          conclusion: r.conclusion,
          run_url: r.run_url,
          next_action: passed ? 'Review the verified result and continue the delivery' : 'Inspect the failed workflow run and fix the change',
        },
        created_at: r.created_at.toISOString(),
      });
      if (out.length >= limit) break;
    }
    return out;
  }
}
