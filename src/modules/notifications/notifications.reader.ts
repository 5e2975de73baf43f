import { Injectable } from '@nestjs/common';
import { AccessPolicyService } from '../../common/access/access-policy.service';
import type { Actor } from '../../common/auth/principal';
import { Clock } from '../../common/clock/clock';
import type { Tx } from '../../database/sql.service';
import { NOTIFICATION_EVENT_TYPES, type NotificationEventType } from './notification-kinds';
import type { NotificationRow } from './notifications.mapper';
import { NotificationsRepository, type ReaderScope } from './notifications.repository';

/**
 * The read side of notifications, reused by other modules (the agent heartbeat's attention items
 * and summary): the caller's unread notifications filtered by the caller's access at read time.
 */
@Injectable()
export class NotificationsReader {
  constructor(
    private readonly repo: NotificationsRepository,
    private readonly access: AccessPolicyService,
    private readonly clock: Clock,
  ) {}

  /** The caller and what the caller can read now (notifications are filtered by it at read time). */
  async scope(actor: Actor): Promise<ReaderScope> {
    const readable = await this.access.readableProjects(actor);
    const projectless = (await this.access.issueLevel(actor, null)) !== null;
    return { orgId: actor.orgId, memberId: actor.memberId, allProjects: readable === 'all', projectIds: readable === 'all' ? [] : readable, projectless };
  }

  /** Unread notifications the caller can still see, newest first, and how many there are in all. */
  async unreadFor(actor: Actor, page: { limit: number; offset: number }): Promise<{ items: NotificationRow[]; total: number }> {
    return this.unreadIn(await this.scope(actor), page);
  }

  /** As unreadFor, for a reader scope the caller has already decided (the heartbeat: access read once per request). */
  async unreadIn(scope: ReaderScope, page: { limit: number; offset: number }): Promise<{ items: NotificationRow[]; total: number }> {
    const total = await this.repo.countUnread(scope);
    if (!total || page.offset >= total) return { items: [], total };
    const items = await this.repo.unreadPage(scope, page.limit, page.offset);
    return { items, total };
  }

  /** Unread visible notifications by event type (every type present, zero when none) and their total. */
  async unreadCountsByType(actor: Actor): Promise<{ total: number; by_type: Record<NotificationEventType, number> }> {
    return this.unreadCountsIn(await this.scope(actor));
  }

  /** As unreadCountsByType, for a reader scope already decided. */
  async unreadCountsIn(scope: ReaderScope): Promise<{ total: number; by_type: Record<NotificationEventType, number> }> {
    return countsOf(await this.repo.unreadByType(scope));
  }

  /**
   * unreadIn and unreadCountsIn together, in one statement (the heartbeat's attention items and
   * summary): the same page, total and counts, read at one instant (so `total` = `counts.total`).
   */
  async unreadSummaryIn(
    scope: ReaderScope,
    page: { limit: number; offset: number },
  ): Promise<{ items: NotificationRow[]; total: number; counts: { total: number; by_type: Record<NotificationEventType, number> } }> {
    const { items, byType } = await this.repo.unreadSummary(scope, page.limit, page.offset);
    const counts = countsOf(byType);
    return { items, total: counts.total, counts };
  }

  /** The caller's visible notification `ref` (or its `attention.resolved` answer of attention item `ref`), read or unread; null when none. */
  async attentionNotice(actor: Actor, ref: string, m?: Tx) {
    return (await this.repo.attentionNotice(await this.scope(actor), ref, m)) ?? null;
  }

  /** Acknowledges the caller's notification consumed by a runner attention claim (idempotent, in the caller's transaction). */
  acknowledgeConsumed(actor: Actor, notificationId: string, m?: Tx): Promise<boolean> {
    return this.repo.acknowledgeConsumed(actor.orgId, actor.memberId, notificationId, this.clock.now(), m);
  }

  /**
   * Acknowledges one of the caller's notifications that the caller can still see; idempotent (the
   * first acknowledgement time is kept). Null when there is no such notification (someone else's,
   * unknown, or about something the caller can no longer read).
   */
  async acknowledge(actor: Actor, notificationId: string): Promise<{ id: string; acknowledged_at: Date } | null> {
    return this.acknowledgeIn(await this.scope(actor), notificationId);
  }

  /** The caller's visible notifications, unread first, then newest (at most `limit`). */
  latestFor(scope: ReaderScope, limit: number): Promise<NotificationRow[]> {
    return this.repo.latestPage(scope, limit);
  }

  /** Acknowledges one visible notification of the reader (null: none such). */
  async acknowledgeIn(scope: ReaderScope, notificationId: string): Promise<{ id: string; acknowledged_at: Date } | null> {
    return (await this.repo.acknowledge(scope, notificationId, this.clock.now())) ?? null;
  }

  /** Acknowledges every visible unread notification of the reader; how many. */
  acknowledgeAllIn(scope: ReaderScope): Promise<number> {
    return this.repo.acknowledgeAll(scope, this.clock.now());
  }
}

/** Counts by event type (every type present, zero when none) and their total. */
function countsOf(rows: Array<{ event_type: NotificationEventType; n: number }>): { total: number; by_type: Record<NotificationEventType, number> } {
  const by_type = Object.fromEntries(NOTIFICATION_EVENT_TYPES.map((t) => [t, 0])) as Record<NotificationEventType, number>;
  let total = 0;
  for (const r of rows) {
    by_type[r.event_type] = r.n;
    total += r.n;
  }
  return { total, by_type };
}
