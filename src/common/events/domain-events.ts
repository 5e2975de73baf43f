import { randomUUID } from 'node:crypto';
import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { EventBus } from '@nestjs/cqrs';
import {
  DataSource,
  type EntityManager,
  type EntitySubscriberInterface,
  type QueryRunner,
  type TransactionCommitEvent,
  type TransactionRollbackEvent,
} from 'typeorm';
import type { Actor } from '../auth/principal';
import type { MemberType, OrgRole } from '../auth/roles';

/**
 * Domain events of work tracking, the one channel between the writers and every effect of a
 * change: issue timeline rows (activity), notifications, webhook deliveries, automation jobs,
 * strategy recalculation, and the re-evaluation of agents when a member's role changes.
 *
 * Writers call one method, `stage(m, event)`, INSIDE their transaction:
 * 1. the event is kept on the transaction's QueryRunner; right before that transaction level
 *    commits (TypeORM's `beforeTransactionCommit`: the COMMIT of the outermost transaction, or the
 *    RELEASE of a savepoint) every registered `TxEventSubscriber` runs over ALL the events the level
 *    staged, in staging order, with the transaction's EntityManager, and writes its rows there
 *    (activity entries, notifications, webhook outbox rows, automation job rows): every effect
 *    commits or rolls back with the change that caused it (a crash after the commit loses nothing),
 *    a subscriber that fails rolls the change back, and a subscriber sees the change's final state.
 *    A batch lets a subscriber write the effects of many events with one statement (a bulk create
 *    of 50 issues: one timeline INSERT, one webhook destination look-up);
 * 2. change events (not timeline entries) are then held on the QueryRunner and published on the
 *    CQRS EventBus when the outermost transaction COMMITs (a TypeORM `afterTransactionCommit`
 *    subscriber); a rollback drops them, and a savepoint rollback drops what it staged. `@EventsHandler`s
 *    only speed up what the committed rows already guarantee (enqueue staged webhook deliveries,
 *    run automation jobs right away); a failing handler never breaks the request that caused it.
 * Outside a transaction, `stage` runs the subscribers and publishes at once.
 * Exception: a `MemberAccessChangedEvent` (the members module's role change or removal) is given to
 * the subscribers at once, inside `stage`, as before the batching: the agents it re-evaluates are
 * revoked at that point of the member's transaction, before the handler goes on. It is never
 * published after commit.
 * A transaction that is run again (TxRunner, after a lost race) stages its events again: what the
 * failed attempt staged went with its rollback.
 */
/** Who made a change. Automation has no member (`memberId` null). */
export interface EventActor {
  memberId: string | null;
  type: 'human' | 'agent' | 'automation';
  displayName: string;
}

export const AUTOMATION_EVENT_ACTOR: EventActor = { memberId: null, type: 'automation', displayName: 'Automation' };
export const eventActorOf = (a: Actor): EventActor =>
  a.isAutomation ? AUTOMATION_EVENT_ACTOR : { memberId: a.memberId, type: a.memberType, displayName: a.displayName };

/** Where a change came from: a person or agent (depth 0) or an automation rule run (depth ≥ 1). */
export interface ChangeOrigin {
  /** The rule whose action made this change, if any. */
  automationRuleId?: string | null;
  /** 0 for changes made by members; a rule action's change has its trigger's depth + 1. */
  automationDepth: number;
}
export const MEMBER_ORIGIN: ChangeOrigin = { automationDepth: 0 };

/** The facts about an issue that consumers decide on (no description, no comment bodies). */
export interface IssueFacts {
  status: string;
  priority: number;
  projectId: string | null;
  assigneeIds: string[];
  title: string;
  number: number;
  createdByMemberId: string | null;
  archived: boolean;
  /** The milestone (absent in events staged before it was added: unknown). */
  milestoneId?: string | null;
}

export type IssueChangeKind = 'created' | 'updated' | 'archived' | 'unarchived' | 'deleted';

/**
 * An issue was created, updated, archived, unarchived or deleted. `changedFields` uses the
 * response (snake_case) names, sorted: e.g. `assignee_id`, `assignee_ids`, `priority`,
 * `project_id`, `status`, `title`. Derived triggers: status changed = `changedFields` has
 * `status`; assigned = `assigneesAdded` is not empty; priority changed = has `priority`.
 */
export class IssueChangedEvent {
  readonly id = randomUUID();
  readonly at = new Date();
  constructor(
    readonly orgId: string,
    readonly issueId: string,
    readonly kind: IssueChangeKind,
    readonly actor: EventActor,
    /** State before the change; null for `created`. */
    readonly before: IssueFacts | null,
    /** State after the change; for `deleted` the last state. */
    readonly after: IssueFacts,
    readonly changedFields: string[] = [],
    readonly assigneesAdded: string[] = [],
    readonly origin: ChangeOrigin = MEMBER_ORIGIN,
  ) {}

  get projectId(): string | null {
    return this.after.projectId;
  }
  get statusChanged(): boolean {
    return this.changedFields.includes('status');
  }
}

/** A comment was added to an issue (POST comments, or `comment_body` on an issue update). */
export class CommentAddedEvent {
  readonly id = randomUUID();
  readonly at = new Date();
  constructor(
    readonly orgId: string,
    readonly issueId: string,
    readonly projectId: string | null,
    readonly commentId: string,
    readonly actor: EventActor,
    /** The comment it replies to and that comment's author member (null when none or automation). */
    readonly replyToCommentId: string | null,
    readonly replyToAuthorMemberId: string | null,
    /** Members whose mention was created (skipped mentions are not here). */
    readonly mentionedMemberIds: string[],
    readonly origin: ChangeOrigin = MEMBER_ORIGIN,
    /** The issue's title and assignees as the writer read them in this request (absent: read them). */
    readonly issue?: { title: string; assigneeIds: string[] },
  ) {}
}

/** The snapshot of an actor as a timeline entry stores it (`metadata.actor`). */
export interface ActorSnapshot {
  id: string | null;
  display_name: string;
  type: 'human' | 'agent' | 'automation';
  /** Undefined when not known yet: the activity recorder then reads the member's current one. */
  avatar_url?: string | null;
}

export const AUTOMATION_ACTOR: ActorSnapshot = { id: null, display_name: 'Automation', type: 'automation', avatar_url: null };

/** The snapshot of the acting member (from the request's Actor, whose avatar is read with it); the automation actor is AUTOMATION_ACTOR. */
export const snapshotOf = (
  a: { memberId: string; displayName: string; memberType: 'human' | 'agent' | 'automation'; avatarUrl?: string | null },
  avatarUrl?: string | null,
): ActorSnapshot =>
  a.memberType === 'automation'
    ? AUTOMATION_ACTOR
    : { id: a.memberId, display_name: a.displayName, type: a.memberType, avatar_url: avatarUrl !== undefined ? avatarUrl : a.avatarUrl };

/**
 * One entry of an issue's timeline, staged by any module in the transaction of the change it
 * describes; the activity module writes it to `activity_events` in that same transaction. Only
 * meaningful task history goes here (lifecycle, comments, assignees, labels, dependencies,
 * subtasks, attachments, initiative/target links, PR links). It is never published after commit.
 */
export class IssueActivityEvent {
  constructor(
    readonly orgId: string,
    readonly issueId: string,
    readonly projectId: string | null,
    /** Member id of the actor; null for automation. */
    readonly actorMemberId: string | null,
    /** Immutable snapshot of the actor at event time (stored as metadata.actor). */
    readonly actor: ActorSnapshot,
    /** e.g. `issue.created`, `issue.updated`, `issue.archived`, `issue.unarchived`, `comment.created`, `label.added`, `dependency.added`, `subtask.created`, `attachment.added`. */
    readonly action: string,
    /** Safe, bounded details (changed field names, ids, titles); never comment bodies or secrets. */
    readonly metadata: Record<string, unknown> = {},
    readonly at: Date = new Date(),
  ) {}
}

/**
 * A member's organization role changed or the member was removed, staged by the members module in
 * the transaction that makes the change. The agents module re-evaluates, in that same transaction,
 * the agents and keys that member stands behind (src/modules/agents/events/member-agents.handler.ts).
 * It is never published after commit.
 */
export class MemberAccessChangedEvent {
  constructor(
    readonly orgId: string,
    readonly memberId: string,
    readonly memberType: MemberType,
    readonly displayName: string,
    readonly previousRole: OrgRole,
    /** The new role; null when the member was removed. */
    readonly role: OrgRole | null,
  ) {}
}

/**
 * An artifact was created or revised (src/modules/artifacts), staged in the transaction that wrote
 * it; subscribers write their effects there (webhook outbox rows `artifact.created` /
 * `artifact.revised`). Never published after commit. Carries what the payload shows, no content.
 */
export class ArtifactChangedEvent {
  readonly id = randomUUID();
  readonly at = new Date();
  constructor(
    readonly orgId: string,
    readonly kind: 'created' | 'revised',
    readonly actor: EventActor,
    readonly artifact: { id: string; type: string; title: string; created_at: string; updated_at: string },
    readonly revision: { id: string; revision_number: number; title_snapshot: string; content_format: string; content_digest: string; created_at: string },
    /** The artifact's links (target type and id). */
    readonly links: Array<{ target_type: 'issue' | 'project'; target_id: string }>,
  ) {}
}

/**
 * A human answered an agent's attention request (src/modules/executions). Notifies the requesting
 * agent (in-app `attention.resolved`) and is delivered to webhooks subscribed to
 * `attention.resolved`. Carries no question or answer text.
 */
export class AttentionResolvedEvent {
  readonly id = randomUUID();
  readonly at = new Date();
  constructor(
    readonly orgId: string,
    readonly attentionItemId: string,
    readonly executionId: string,
    readonly issueId: string,
    readonly projectId: string | null,
    readonly requesterMemberId: string,
    readonly actor: EventActor,
    /** The request's title (bounded, 200 characters). */
    readonly title: string,
    readonly itemVersion: number,
    readonly executionStateVersion: number,
  ) {}
}

/**
 * A completed workflow run verified a linked pull request's exact head (src/modules/github, a
 * connection in `attention` verification mode): one per recipient and exact repository, pull
 * request, run attempt and head (`verificationItemId`, the cause). Notifies the recipient in-app
 * (`verification.completed`). Carries bounded identifiers only: no payload, secret, log or thread.
 * Never published after commit.
 */
export class VerificationCompletedEvent {
  constructor(
    readonly orgId: string,
    readonly verificationItemId: string,
    readonly recipientMemberId: string,
    readonly issueId: string,
    readonly projectId: string | null,
    /** e.g. `Workflow "CI" success on octo/widgets#12` (bounded). */
    readonly title: string,
    readonly passed: boolean,
    readonly verification: {
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
    },
  ) {}
}

/**
 * A project-level timeline entry (no issue), staged in the transaction of the change it describes:
 * `project.status_updated`. Read in the organization feed with the project's access.
 */
export class ProjectActivityEvent {
  constructor(
    readonly orgId: string,
    readonly projectId: string,
    readonly actorMemberId: string | null,
    readonly actor: ActorSnapshot,
    readonly action: string,
    readonly metadata: Record<string, unknown> = {},
    readonly at: Date = new Date(),
  ) {}
}

/**
 * A project status update was posted (src/modules/project-status), staged in its transaction;
 * subscribers write the webhook outbox rows (`project.status_updated`) there. Never published.
 */
export class ProjectStatusUpdatedEvent {
  readonly id = randomUUID();
  readonly at = new Date();
  constructor(
    readonly orgId: string,
    readonly actor: EventActor,
    readonly project: { id: string; key: string | null; name: string },
    readonly statusUpdate: { id: string; status: string; previous_status: string | null; created_at: string },
  ) {}
}

/** Staged events published on the EventBus after commit. */
export type ChangeEvent = IssueChangedEvent | CommentAddedEvent | AttentionResolvedEvent;
export type DomainEvent =
  | ChangeEvent
  | IssueActivityEvent
  | ProjectActivityEvent
  | MemberAccessChangedEvent
  | ArtifactChangedEvent
  | ProjectStatusUpdatedEvent
  | VerificationCompletedEvent;
const isChangeEvent = (e: DomainEvent): e is ChangeEvent =>
  e instanceof IssueChangedEvent || e instanceof CommentAddedEvent || e instanceof AttentionResolvedEvent;
/** Events the subscribers get inside `stage` itself rather than at their level's commit. */
const isImmediate = (e: DomainEvent): boolean => e instanceof MemberAccessChangedEvent;

/**
 * Runs inside the writer's transaction (same EntityManager) before it commits; throwing rolls the
 * change back. `onStagedAll` (when present) gets every event the transaction level staged at once,
 * in staging order; otherwise `onStaged` is called for each of them.
 */
export interface TxEventSubscriber {
  onStaged(m: EntityManager, event: DomainEvent): Promise<void>;
  onStagedAll?(m: EntityManager, events: DomainEvent[]): Promise<void>;
}

const HELD = Symbol('domainEvents');
const PENDING = Symbol('domainEventsPending');
type Held = {
  /** Change events whose effects are written, published after the outermost commit. */
  [HELD]?: Array<{ event: ChangeEvent; depth: number }>;
  /** Events staged and not yet given to the subscribers (at the commit of their level). */
  [PENDING]?: Array<{ event: DomainEvent; depth: number }>;
};

/**
 * How many webhooks and automation rules an organization has (`effect_presence`, kept by
 * triggers), as a writer's transaction read it with its first statement: their subscribers skip
 * their look-ups when there are none.
 */
export interface EffectPresence {
  webhooks: number;
  automationRules: number;
}
const PRESENCE = Symbol('effectPresence');
type Presence = { [PRESENCE]?: Map<string, EffectPresence> };
/** TypeORM's nesting level of the runner's transaction (1 = outermost; savepoints above). */
const depthOf = (qr: QueryRunner): number => (qr as unknown as { transactionDepth?: number }).transactionDepth ?? 1;

@Injectable()
export class DomainEvents implements OnModuleInit, EntitySubscriberInterface {
  private readonly log = new Logger('DomainEvents');
  private readonly subscribers: TxEventSubscriber[] = [];

  constructor(
    private readonly bus: EventBus,
    private readonly db: DataSource,
  ) {}

  onModuleInit(): void {
    if (!this.db.subscribers.includes(this)) this.db.subscribers.push(this);
  }

  /** Modules register their in-transaction subscribers in `onModuleInit`. */
  register(s: TxEventSubscriber): void {
    if (!this.subscribers.includes(s)) this.subscribers.push(s);
  }

  /**
   * Call inside the transaction that makes the change: its effects are written right before the
   * transaction (level) commits, and change events are published after the outermost commit.
   */
  async stage(m: EntityManager, ...events: DomainEvent[]): Promise<void> {
    if (!events.length) return;
    // re-evaluations of a member's access run at once, in the member's transaction (never published)
    const now = events.filter(isImmediate);
    if (now.length) await this.deliver(m, now);
    events = events.filter((e) => !isImmediate(e));
    if (!events.length) return;
    const qr = m.queryRunner;
    if (qr?.isTransactionActive && !qr.isReleased) {
      const depth = depthOf(qr);
      ((qr.data as Held)[PENDING] ??= []).push(...events.map((event) => ({ event, depth })));
      return;
    }
    await this.deliver(m, events);
    this.publish(...events.filter(isChangeEvent));
  }

  /** Notes what this transaction read about the organization's webhooks and automation rules. */
  notePresence(m: EntityManager, orgId: string, presence: EffectPresence): void {
    const qr = m.queryRunner;
    if (qr?.isTransactionActive) ((qr.data as Presence)[PRESENCE] ??= new Map()).set(orgId, presence);
  }

  /** What the transaction of `m` noted (undefined: nothing read; the subscriber looks it up). */
  presence(m: EntityManager, orgId: string): EffectPresence | undefined {
    return (m.queryRunner?.data as Presence | undefined)?.[PRESENCE]?.get(orgId);
  }

  /** Every subscriber over `events`, in registration order. */
  private async deliver(m: EntityManager, events: DomainEvent[]): Promise<void> {
    for (const s of this.subscribers) {
      if (s.onStagedAll) await s.onStagedAll(m, events);
      else for (const e of events) await s.onStaged(m, e);
    }
  }

  /** Before a transaction level commits: the subscribers write the effects of what it staged. */
  async beforeTransactionCommit(event: TransactionCommitEvent): Promise<void> {
    const qr = event.queryRunner;
    const data = qr.data as Held;
    const depth = depthOf(qr);
    // a subscriber may stage more: loop until this level has nothing left
    for (;;) {
      const pending = data[PENDING] ?? [];
      const mine = pending.filter((p) => p.depth >= depth);
      if (!mine.length) return;
      data[PENDING] = pending.filter((p) => p.depth < depth);
      const events = mine.map((p) => p.event);
      await this.deliver(qr.manager, events);
      (data[HELD] ??= []).push(...events.filter(isChangeEvent).map((e) => ({ event: e, depth })));
    }
  }

  /** Publishes right away (for callers that are already after their commit). */
  publish(...events: ChangeEvent[]): void {
    for (const e of events) {
      try {
        this.bus.publish(e);
      } catch (err) {
        this.log.warn(`Could not publish ${e.constructor.name}: ${(err as Error)?.message}`);
      }
    }
  }

  afterTransactionCommit(event: TransactionCommitEvent): void {
    const qr = event.queryRunner;
    if (qr.isTransactionActive) {
      // a savepoint was released: what it staged now belongs to the enclosing level, so a later
      // rollback to a sibling savepoint keeps it; the outer transaction decides
      const depth = depthOf(qr);
      for (const h of (qr.data as Held)[HELD] ?? []) h.depth = Math.min(h.depth, depth);
      return;
    }
    const held = (qr.data as Held)[HELD] ?? [];
    delete (qr.data as Held)[HELD];
    if (held.length) this.publish(...held.map((h) => h.event));
  }

  afterTransactionRollback(event: TransactionRollbackEvent): void {
    const qr = event.queryRunner;
    const data = qr.data as Held;
    if (!qr.isTransactionActive) {
      delete data[HELD];
      delete data[PENDING];
      return;
    }
    // rolled back to a savepoint: drop what was staged inside it (TypeORM nested transactions;
    // raw SAVEPOINT queries are invisible here, so stage only after releasing those)
    const depth = depthOf(qr);
    data[HELD] = (data[HELD] ?? []).filter((h) => h.depth <= depth);
    data[PENDING] = (data[PENDING] ?? []).filter((h) => h.depth <= depth);
  }
}
