import { randomUUID } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { EventsHandler, type IEventHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { AccessPolicyService } from '../../common/access/access-policy.service';
import { Clock } from '../../common/clock/clock';
import { CommentAddedEvent, type EventActor, IssueChangedEvent } from '../../common/events/domain-events';
import type { NotificationActionKind, NotificationEventType, NotificationSeverity } from './notification-kinds';
import { NotificationPreferences } from './notification-preferences.service';

/** One intended notification before the recipient checks (access, preferences). */
interface Candidate {
  recipient: string;
  eventType: NotificationEventType;
  severity: NotificationSeverity;
  /** Decided per recipient type once the recipient row is loaded. */
  action: (recipientType: string) => NotificationActionKind;
  metadata?: (recipientType: string) => Record<string, unknown>;
}

interface Cause {
  orgId: string;
  causeId: string;
  issueId: string;
  projectId: string | null;
  commentId: string | null;
  replyToCommentId: string | null;
  actor: EventActor;
  title: string;
}

const ROUTING_KEYS = ['harness', 'thread_id', 'session_id', 'host_id'] as const;
const conversational = (type: string): NotificationActionKind => (type === 'agent' ? 'resume_agent_thread' : 'respond_to_comment');

/**
 * Turns domain events (after commit) into notifications. Rules, in precedence order per cause
 * (one notification per recipient and cause; the first rule that matches a recipient wins):
 * - a comment (cause = the comment): mentioned members (`mention.created`), then the author of
 *   the comment it directly replies to, then the issue's assignees (both `comment.added`);
 * - an issue change (cause = the event): added assignees (`issue.assigned`), then the creator when
 *   the status changed (`issue.status_changed`).
 * Never for the member's own action; only to live members who can read the issue now and have the
 * event type switched on in-app. The partial unique index on (org, recipient, cause) makes a
 * replayed event a no-op. A failure is logged and never affects the change that caused it.
 */
@Injectable()
@EventsHandler(IssueChangedEvent, CommentAddedEvent)
export class NotificationsFanout implements IEventHandler<IssueChangedEvent | CommentAddedEvent> {
  private readonly log = new Logger('NotificationsFanout');

  constructor(
    private readonly db: DataSource,
    private readonly access: AccessPolicyService,
    private readonly prefs: NotificationPreferences,
    private readonly clock: Clock,
  ) {}

  handle(e: IssueChangedEvent | CommentAddedEvent): Promise<void> {
    const work = e instanceof CommentAddedEvent ? this.onComment(e) : this.onIssueChange(e);
    return work.catch((err) => this.log.error(`Notifications for ${e.constructor.name} ${e.id} failed: ${(err as Error)?.message}`));
  }

  private async onIssueChange(e: IssueChangedEvent): Promise<void> {
    if (e.kind === 'deleted') return;
    const out: Candidate[] = e.assigneesAdded.map((recipient) => ({
      recipient, eventType: 'issue.assigned', severity: 'warning', action: () => 'start_work',
    }));
    const creator = e.after.createdByMemberId;
    if (e.kind !== 'created' && e.statusChanged && creator) {
      const metadata = { status_from: e.before?.status ?? null, status_to: e.after.status };
      out.push({ recipient: creator, eventType: 'issue.status_changed', severity: 'info', action: () => 'review_issue', metadata: () => metadata });
    }
    await this.deliver(
      { orgId: e.orgId, causeId: e.id, issueId: e.issueId, projectId: e.after.projectId, commentId: null, replyToCommentId: null, actor: e.actor, title: e.after.title },
      out,
    );
  }

  private async onComment(e: CommentAddedEvent): Promise<void> {
    const [issue]: Array<{ title: string; project_id: string | null; assignee_ids: string[] }> = await this.db.query(
      `SELECT i.title, i.project_id,
              array(SELECT ia.member_id FROM issue_assignees ia WHERE ia.org_id = i.org_id AND ia.issue_id = i.id
                    UNION SELECT i.assignee_id WHERE i.assignee_id IS NOT NULL)::uuid[] AS assignee_ids
         FROM issues i WHERE i.org_id = $1 AND i.id = $2`,
      [e.orgId, e.issueId],
    );
    if (!issue) return;
    let routing: Record<string, string> | null = null;
    if (e.replyToCommentId && e.replyToAuthorMemberId) {
      const [parent]: Array<{ source_metadata: Record<string, unknown> | null }> = await this.db.query(
        'SELECT source_metadata FROM comments WHERE org_id = $1 AND id = $2',
        [e.orgId, e.replyToCommentId],
      );
      const meta = parent?.source_metadata ?? null;
      if (meta && (meta.thread_id || meta.session_id)) {
        routing = {};
        for (const k of ROUTING_KEYS) if (typeof meta[k] === 'string') routing[k] = meta[k] as string;
      }
    }
    const parentAuthor = e.replyToAuthorMemberId;
    // the parent agent comment's routing goes to that agent only, whatever the rule that reached it
    const metaFor = (recipient: string) => (type: string) => (routing && type === 'agent' && recipient === parentAuthor ? { routing } : {});
    const out: Candidate[] = [
      ...e.mentionedMemberIds.map((recipient): Candidate => ({
        recipient, eventType: 'mention.created', severity: 'warning', action: conversational, metadata: metaFor(recipient),
      })),
      ...(parentAuthor ? [{ recipient: parentAuthor, eventType: 'comment.added', severity: 'warning', action: conversational, metadata: metaFor(parentAuthor) } as Candidate] : []),
      ...issue.assignee_ids.map((recipient): Candidate => ({ recipient, eventType: 'comment.added', severity: 'info', action: () => 'review_issue' })),
    ];
    await this.deliver(
      {
        orgId: e.orgId, causeId: e.commentId, issueId: e.issueId, projectId: issue.project_id, commentId: e.commentId,
        replyToCommentId: e.replyToCommentId, actor: e.actor, title: issue.title,
      },
      out,
    );
  }

  /** Precedence, self-exclusion, access and preferences; then one idempotent insert per recipient. */
  private async deliver(c: Cause, candidates: Candidate[]): Promise<void> {
    const chosen = new Map<string, Candidate>();
    for (const cand of candidates) {
      if (cand.recipient === c.actor.memberId || chosen.has(cand.recipient)) continue;
      chosen.set(cand.recipient, cand);
    }
    if (!chosen.size) return;
    const readers = await this.access.issueReadersAmong(c.orgId, [...chosen.keys()], c.projectId);
    const now = this.clock.now();
    const muted = new Set<string>();
    for (const type of new Set(readers.map((r) => chosen.get(r.id)!.eventType))) {
      const ids = readers.filter((r) => chosen.get(r.id)!.eventType === type).map((r) => r.id);
      for (const id of await this.prefs.disabledAmong(c.orgId, ids, type)) muted.add(id);
    }
    for (const r of readers) {
      const cand = chosen.get(r.id)!;
      if (muted.has(r.id)) continue;
      await this.db.query(
        `INSERT INTO notifications (org_id, id, recipient_member_id, event_type, severity, action_kind, cause_id, issue_id, project_id,
                                    comment_id, reply_to_comment_id, actor_member_id, actor_type, title, metadata, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)
         ON CONFLICT (org_id, recipient_member_id, cause_id) WHERE cause_id IS NOT NULL DO NOTHING`,
        [
          c.orgId, randomUUID(), r.id, cand.eventType, cand.severity, cand.action(r.type), c.causeId, c.issueId, c.projectId,
          c.commentId, c.replyToCommentId, c.actor.memberId, c.actor.type, c.title.slice(0, 1000), JSON.stringify(cand.metadata?.(r.type) ?? {}), now,
        ],
      );
    }
  }
}
