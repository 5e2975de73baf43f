import { Injectable } from '@nestjs/common';
import { AccessPolicyService } from '../../common/access/access-policy.service';
import type { Actor } from '../../common/auth/principal';
import { Clock } from '../../common/clock/clock';
import { Sql } from '../../database/sql.service';
import { NOTIFICATION_EVENT_TYPES, type NotificationEventType } from './notification-kinds';
import { type NotificationRow, NOTIFICATION_COLUMNS } from './notifications.mapper';

/**
 * Visibility now, in SQL: the issue a notification is about (its CURRENT project) must be readable
 * by the caller ($3 = every project, $4 = readable project ids, $5 = projectless issues), and the
 * comment it points at must not be deleted. One index lookup per candidate row.
 */
const VISIBLE = `(CASE WHEN n.issue_id IS NULL
        THEN (n.project_id IS NULL AND $5::boolean) OR (n.project_id IS NOT NULL AND ($3::boolean OR n.project_id = ANY($4::uuid[])))
        ELSE EXISTS (SELECT 1 FROM issues i WHERE i.org_id = n.org_id AND i.id = n.issue_id
                       AND ((i.project_id IS NULL AND $5::boolean) OR (i.project_id IS NOT NULL AND ($3::boolean OR i.project_id = ANY($4::uuid[])))))
      END)
  AND NOT EXISTS (SELECT 1 FROM comments c WHERE c.org_id = n.org_id AND c.id = n.comment_id AND c.deleted_at IS NOT NULL)`;
const MINE_UNREAD = `n.org_id = $1 AND n.recipient_member_id = $2 AND n.acknowledged_at IS NULL AND ${VISIBLE}`;

/**
 * The read side of notifications, reused by other modules (the agent heartbeat's attention items
 * and summary): the caller's unread notifications filtered by the caller's access at read time.
 */
@Injectable()
export class NotificationsReader {
  constructor(
    private readonly sql: Sql,
    private readonly access: AccessPolicyService,
    private readonly clock: Clock,
  ) {}

  /** $1..$5 of the visibility fragment for this caller. */
  private async scope(actor: Actor): Promise<unknown[]> {
    const readable = await this.access.readableProjects(actor);
    const projectless = (await this.access.issueLevel(actor, null)) !== null;
    return [actor.orgId, actor.memberId, readable === 'all', readable === 'all' ? [] : readable, projectless];
  }

  /** Unread notifications the caller can still see, newest first, and how many there are in all. */
  async unreadFor(actor: Actor, page: { limit: number; offset: number }): Promise<{ items: NotificationRow[]; total: number }> {
    const params = await this.scope(actor);
    const [{ total }] = await this.sql.rows<{ total: number }>(`SELECT count(*)::int AS total FROM notifications n WHERE ${MINE_UNREAD}`, params);
    if (!total || page.offset >= total) return { items: [], total };
    const items = await this.sql.rows<NotificationRow>(`SELECT ${NOTIFICATION_COLUMNS} FROM notifications n WHERE ${MINE_UNREAD} ORDER BY n.created_at DESC, n.id DESC LIMIT $6 OFFSET $7`,
      [...params, page.limit, page.offset],
    );
    return { items, total };
  }

  /** Unread visible notifications by event type (every type present, zero when none) and their total. */
  async unreadCountsByType(actor: Actor): Promise<{ total: number; by_type: Record<NotificationEventType, number> }> {
    const rows = await this.sql.rows<{ event_type: NotificationEventType; n: number }>(`SELECT n.event_type, count(*)::int AS n FROM notifications n WHERE ${MINE_UNREAD} GROUP BY n.event_type`,
      await this.scope(actor),
    );
    const by_type = Object.fromEntries(NOTIFICATION_EVENT_TYPES.map((t) => [t, 0])) as Record<NotificationEventType, number>;
    let total = 0;
    for (const r of rows) {
      by_type[r.event_type] = r.n;
      total += r.n;
    }
    return { total, by_type };
  }

  /**
   * Acknowledges one of the caller's notifications that the caller can still see; idempotent (the
   * first acknowledgement time is kept). Null when there is no such notification (someone else's,
   * unknown, or about something the caller can no longer read).
   */
  async acknowledge(actor: Actor, notificationId: string): Promise<{ id: string; acknowledged_at: Date } | null> {
    const params = await this.scope(actor);
    const rows = await this.sql.rows<{ id: string; acknowledged_at: Date }>(`UPDATE notifications n SET acknowledged_at = coalesce(n.acknowledged_at, greatest($6::timestamptz, n.created_at))
        WHERE n.org_id = $1 AND n.recipient_member_id = $2 AND n.id = $7 AND ${VISIBLE}
        RETURNING n.id, n.acknowledged_at`,
      [...params, this.clock.now(), notificationId],
    );
    return rows[0] ?? null;
  }
}
