import { randomUUID } from 'node:crypto';
import { Injectable, type OnModuleInit } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { AccessPolicyService } from '../../common/access/access-policy.service';
import { Clock } from '../../common/clock/clock';
import {
  AttentionResolvedEvent,
  CommentAddedEvent,
  type DomainEvent,
  DomainEvents,
  type EventActor,
  IssueChangedEvent,
  VerificationCompletedEvent,
} from '../../common/events/domain-events';
import type { NotificationActionKind, NotificationEventType, NotificationSeverity } from './notification-kinds';
import { NotificationPreferences } from './notification-preferences.service';
import { NotificationsRepository } from './notifications.repository';

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

/** The source-hosting provider (no member) as the actor of a verification. */
const PROVIDER_ACTOR: EventActor = { memberId: null, type: 'automation', displayName: 'GitHub' };
const ROUTING_KEYS = ['harness', 'thread_id', 'session_id', 'host_id'] as const;
const conversational = (type: string): NotificationActionKind => (type === 'agent' ? 'resume_agent_thread' : 'respond_to_comment');

/**
 * Turns staged domain events into notifications, in the writer's transaction (a DomainEvents
 * subscriber): a committed change always has its notifications, a rolled-back one none. Rules, in precedence order per cause
 * (one notification per recipient and cause; the first rule that matches a recipient wins):
 * - a comment (cause = the comment): mentioned members (`mention.created`), then the author of
 *   the comment it directly replies to, then the issue's assignees (both `comment.added`);
 * - an issue change (cause = the event): added assignees (`issue.assigned`), then the creator when
 *   the status changed (`issue.status_changed`);
 * - an answered attention request (cause = the event): its requesting agent (`attention.resolved`);
 * - a verified workflow run (cause = the verification item): the assignee it names
 *   (`verification.completed`; agents `resume_agent_thread`, humans `review_issue`).
 * Never for the member's own action; only to live members who can read the issue now and have the
 * event type switched on in-app. The partial unique index on (org, recipient, cause) makes a
 * replayed event a no-op.
 */
@Injectable()
export class NotificationsFanout implements OnModuleInit {
  constructor(
    private readonly events: DomainEvents,
    private readonly repo: NotificationsRepository,
    private readonly access: AccessPolicyService,
    private readonly prefs: NotificationPreferences,
    private readonly clock: Clock,
  ) {}

  onModuleInit(): void {
    this.events.register({ onStaged: (m, e) => this.onStaged(m, e) });
  }

  async onStaged(m: EntityManager, e: DomainEvent): Promise<void> {
    if (e instanceof CommentAddedEvent) await this.onComment(m, e);
    else if (e instanceof IssueChangedEvent) await this.onIssueChange(m, e);
    else if (e instanceof AttentionResolvedEvent) await this.onAttentionResolved(m, e);
    else if (e instanceof VerificationCompletedEvent) await this.onVerification(m, e);
  }

  /** A workflow run verified a linked PR's exact head: the issue's assignee (if it can still read the issue) is told. */
  private async onVerification(m: EntityManager, e: VerificationCompletedEvent): Promise<void> {
    const metadata = { verification: e.verification };
    await this.deliver(
      m,
      {
        orgId: e.orgId,
        causeId: e.verificationItemId,
        issueId: e.issueId,
        projectId: e.projectId,
        commentId: null,
        replyToCommentId: null,
        actor: PROVIDER_ACTOR,
        title: e.title,
      },
      [
        {
          recipient: e.recipientMemberId,
          eventType: 'verification.completed',
          severity: e.passed ? 'info' : 'warning',
          action: (type) => (type === 'agent' ? 'resume_agent_thread' : 'review_issue'),
          metadata: () => metadata,
        },
      ],
    );
  }

  /** A human answered an attention request: its requester (if it can still read the issue) is told. */
  private async onAttentionResolved(m: EntityManager, e: AttentionResolvedEvent): Promise<void> {
    const metadata = { execution_id: e.executionId, attention_item_id: e.attentionItemId, attention_version: e.itemVersion };
    await this.deliver(
      m,
      {
        orgId: e.orgId,
        causeId: e.id,
        issueId: e.issueId,
        projectId: e.projectId,
        commentId: null,
        replyToCommentId: null,
        actor: e.actor,
        title: e.title,
      },
      [{ recipient: e.requesterMemberId, eventType: 'attention.resolved', severity: 'warning', action: () => 'resume_agent_thread', metadata: () => metadata }],
    );
  }

  private async onIssueChange(m: EntityManager, e: IssueChangedEvent): Promise<void> {
    if (e.kind === 'deleted') return;
    const out: Candidate[] = e.assigneesAdded.map((recipient) => ({
      recipient,
      eventType: 'issue.assigned',
      severity: 'warning',
      action: () => 'start_work',
    }));
    const creator = e.after.createdByMemberId;
    if (e.kind !== 'created' && e.statusChanged && creator) {
      const metadata = { status_from: e.before?.status ?? null, status_to: e.after.status };
      out.push({ recipient: creator, eventType: 'issue.status_changed', severity: 'info', action: () => 'review_issue', metadata: () => metadata });
    }
    await this.deliver(
      m,
      {
        orgId: e.orgId,
        causeId: e.id,
        issueId: e.issueId,
        projectId: e.after.projectId,
        commentId: null,
        replyToCommentId: null,
        actor: e.actor,
        title: e.after.title,
      },
      out,
    );
  }

  private async onComment(m: EntityManager, e: CommentAddedEvent): Promise<void> {
    // the writer's read of the issue (same request), or a read now
    const issue = e.issue
      ? { title: e.issue.title, project_id: e.projectId, assignee_ids: e.issue.assigneeIds }
      : await this.repo.commentedIssue(e.orgId, e.issueId, m);
    if (!issue) return;
    let routing: Record<string, string> | null = null;
    if (e.replyToCommentId && e.replyToAuthorMemberId) {
      const parent = await this.repo.commentSource(e.orgId, e.replyToCommentId, m);
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
        recipient,
        eventType: 'mention.created',
        severity: 'warning',
        action: conversational,
        metadata: metaFor(recipient),
      })),
      ...(parentAuthor
        ? [{ recipient: parentAuthor, eventType: 'comment.added', severity: 'warning', action: conversational, metadata: metaFor(parentAuthor) } as Candidate]
        : []),
      ...issue.assignee_ids.map((recipient): Candidate => ({ recipient, eventType: 'comment.added', severity: 'info', action: () => 'review_issue' })),
    ];
    await this.deliver(
      m,
      {
        orgId: e.orgId,
        causeId: e.commentId,
        issueId: e.issueId,
        projectId: issue.project_id,
        commentId: e.commentId,
        replyToCommentId: e.replyToCommentId,
        actor: e.actor,
        title: issue.title,
      },
      out,
    );
  }

  /** Precedence, self-exclusion, access and preferences; then one idempotent insert per recipient. */
  private async deliver(m: EntityManager, c: Cause, candidates: Candidate[]): Promise<void> {
    const chosen = new Map<string, Candidate>();
    for (const cand of candidates) {
      if (cand.recipient === c.actor.memberId || chosen.has(cand.recipient)) continue;
      chosen.set(cand.recipient, cand);
    }
    if (!chosen.size) return;
    const readers = await this.access.issueReadersAmong(c.orgId, [...chosen.keys()], c.projectId, m);
    const now = this.clock.now();
    const muted = new Set<string>();
    for (const type of new Set(readers.map((r) => chosen.get(r.id)!.eventType))) {
      const ids = readers.filter((r) => chosen.get(r.id)!.eventType === type).map((r) => r.id);
      for (const id of await this.prefs.disabledAmong(c.orgId, ids, type, 'in_app', m)) muted.add(id);
    }
    for (const r of readers) {
      const cand = chosen.get(r.id)!;
      if (muted.has(r.id)) continue;
      await this.repo.insertOnce(
        {
          orgId: c.orgId,
          id: randomUUID(),
          recipientMemberId: r.id,
          eventType: cand.eventType,
          severity: cand.severity,
          actionKind: cand.action(r.type),
          causeId: c.causeId,
          issueId: c.issueId,
          projectId: c.projectId,
          commentId: c.commentId,
          replyToCommentId: c.replyToCommentId,
          actorMemberId: c.actor.memberId,
          actorType: c.actor.type,
          title: c.title.slice(0, 1000),
          metadata: cand.metadata?.(r.type) ?? {},
          createdAt: now,
        },
        m,
      );
    }
  }
}
