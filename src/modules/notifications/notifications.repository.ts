import { Injectable } from '@nestjs/common';
import { Sql, type Tx } from '../../database/sql.service';
import type { NotificationEventType } from './notification-kinds';
import type { NotificationRow } from './notifications.mapper';

/** Who reads: the caller, and the issues the caller can read now (see NotificationsReader). */
export interface ReaderScope {
  orgId: string;
  memberId: string;
  allProjects: boolean;
  projectIds: string[];
  projectless: boolean;
}

const COLUMNS = `n.org_id, n.id, n.event_type, n.severity, n.action_kind, n.issue_id, n.project_id, n.comment_id,
  n.reply_to_comment_id, n.actor_member_id, n.actor_type, n.title, n.metadata, n.created_at, n.acknowledged_at`;

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
const scopeParams = (s: ReaderScope): unknown[] => [s.orgId, s.memberId, s.allProjects, s.allProjects ? [] : s.projectIds, s.projectless];

/** A notification as written by the fan-out. */
export interface NewNotificationRow {
  orgId: string;
  id: string;
  recipientMemberId: string;
  eventType: string;
  severity: string;
  actionKind: string;
  causeId: string;
  issueId: string;
  projectId: string | null;
  commentId: string | null;
  replyToCommentId: string | null;
  actorMemberId: string | null;
  actorType: string;
  title: string;
  metadata: Record<string, unknown>;
  createdAt: Date;
}

/** `notifications` and `notification_preferences`: the fan-out's writes, the reader's reads, the switches. */
@Injectable()
export class NotificationsRepository {
  constructor(private readonly sql: Sql) {}

  /** The commented issue's title, project and assignees (both assignee columns), or undefined. */
  commentedIssue(orgId: string, issueId: string, m?: Tx): Promise<{ title: string; project_id: string | null; assignee_ids: string[] } | undefined> {
    return this.sql.row<{ title: string; project_id: string | null; assignee_ids: string[] }>(
      `SELECT i.title, i.project_id,
              array(SELECT ia.member_id FROM issue_assignees ia WHERE ia.org_id = i.org_id AND ia.issue_id = i.id
                    UNION SELECT i.assignee_id WHERE i.assignee_id IS NOT NULL)::uuid[] AS assignee_ids
         FROM issues i WHERE i.org_id = $1 AND i.id = $2`,
      [orgId, issueId],
      m,
    );
  }

  /** The source metadata of the comment replied to (agent routing), or undefined. */
  commentSource(orgId: string, commentId: string, m?: Tx): Promise<{ source_metadata: Record<string, unknown> | null } | undefined> {
    return this.sql.row<{ source_metadata: Record<string, unknown> | null }>(
      'SELECT source_metadata FROM comments WHERE org_id = $1 AND id = $2',
      [orgId, commentId],
      m,
    );
  }

  /** Writes one notification; a second one for the same recipient and cause is ignored. */
  async insertOnce(n: NewNotificationRow, m?: Tx): Promise<void> {
    await this.sql.run(
      `INSERT INTO notifications (org_id, id, recipient_member_id, event_type, severity, action_kind, cause_id, issue_id, project_id,
                                  comment_id, reply_to_comment_id, actor_member_id, actor_type, title, metadata, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15::jsonb, $16)
       ON CONFLICT (org_id, recipient_member_id, cause_id) WHERE cause_id IS NOT NULL DO NOTHING`,
      [
        n.orgId,
        n.id,
        n.recipientMemberId,
        n.eventType,
        n.severity,
        n.actionKind,
        n.causeId,
        n.issueId,
        n.projectId,
        n.commentId,
        n.replyToCommentId,
        n.actorMemberId,
        n.actorType,
        n.title,
        JSON.stringify(n.metadata),
        n.createdAt,
      ],
      m,
    );
  }

  /** Of `memberIds`, those who switched `eventType` off on `channel`. */
  async disabledAmong(orgId: string, memberIds: string[], eventType: string, channel: string, m?: Tx): Promise<string[]> {
    const rows = await this.sql.rows<{ member_id: string }>(
      `SELECT member_id FROM notification_preferences
        WHERE org_id = $1 AND member_id = ANY($2::uuid[]) AND channel = $3 AND event_type = $4 AND NOT enabled`,
      [orgId, memberIds, channel, eventType],
      m,
    );
    return rows.map((r) => r.member_id);
  }

  /** The switches one member changed (the others are on). */
  preferencesOf(orgId: string, memberId: string, m?: Tx): Promise<Array<{ channel: string; event_type: string; enabled: boolean }>> {
    return this.sql.rows<{ channel: string; event_type: string; enabled: boolean }>(
      'SELECT channel, event_type, enabled FROM notification_preferences WHERE org_id = $1 AND member_id = $2',
      [orgId, memberId],
      m,
    );
  }

  /** Sets one member's switch (insert or update). */
  async setPreference(orgId: string, memberId: string, channel: string, eventType: string, enabled: boolean, at: Date, m?: Tx): Promise<void> {
    await this.sql.run(
      `INSERT INTO notification_preferences (org_id, member_id, channel, event_type, enabled, updated_at) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (org_id, member_id, channel, event_type) DO UPDATE SET enabled = EXCLUDED.enabled, updated_at = EXCLUDED.updated_at`,
      [orgId, memberId, channel, eventType, enabled, at],
      m,
    );
  }

  /** Acknowledges every unread `mention.created` of a member (mentions muted); answers how many. */
  async acknowledgeMentions(orgId: string, memberId: string, at: Date, m?: Tx): Promise<number> {
    return this.sql.run(
      `UPDATE notifications SET acknowledged_at = greatest($3::timestamptz, created_at)
        WHERE org_id = $1 AND recipient_member_id = $2 AND event_type = 'mention.created' AND acknowledged_at IS NULL`,
      [orgId, memberId, at],
      m,
    );
  }

  /** How many unread notifications the reader can still see. */
  async countUnread(s: ReaderScope, m?: Tx): Promise<number> {
    return (await this.sql.row<{ total: number }>(`SELECT count(*)::int AS total FROM notifications n WHERE ${MINE_UNREAD}`, scopeParams(s), m))!.total;
  }

  /** One page of the reader's visible unread notifications, newest first. */
  unreadPage(s: ReaderScope, limit: number, offset: number, m?: Tx): Promise<NotificationRow[]> {
    return this.sql.rows<NotificationRow>(
      `SELECT ${COLUMNS} FROM notifications n WHERE ${MINE_UNREAD} ORDER BY n.created_at DESC, n.id DESC LIMIT $6 OFFSET $7`,
      [...scopeParams(s), limit, offset],
      m,
    );
  }

  /** The reader's visible unread notifications counted by event type (types without any are absent). */
  unreadByType(s: ReaderScope, m?: Tx): Promise<Array<{ event_type: NotificationEventType; n: number }>> {
    return this.sql.rows<{ event_type: NotificationEventType; n: number }>(
      `SELECT n.event_type, count(*)::int AS n FROM notifications n WHERE ${MINE_UNREAD} GROUP BY n.event_type`,
      scopeParams(s),
      m,
    );
  }

  /**
   * countUnread, unreadByType and unreadPage in ONE statement (the heartbeat's attention, recomputed
   * for every agent after each write): the reader's visible unread notifications counted by event
   * type (the total is their sum) and one page of them, newest first. The page rows are the same
   * columns with the same types as unreadPage's (plain columns, not JSON: dates stay dates); the
   * counts come as one JSON object on every row, and on a single row of NULL columns when the page
   * is empty (no unread notification, or `offset` past the total).
   */
  async unreadSummary(
    s: ReaderScope,
    limit: number,
    offset: number,
    m?: Tx,
  ): Promise<{ items: NotificationRow[]; byType: Array<{ event_type: NotificationEventType; n: number }> }> {
    const rows = await this.sql.rows<NotificationRow & { by_type: Record<string, number> | null }>(
      `WITH u AS (SELECT ${COLUMNS} FROM notifications n WHERE ${MINE_UNREAD}),
            c AS (SELECT json_object_agg(t.event_type, t.n ORDER BY t.event_type) AS by_type
                    FROM (SELECT u.event_type, count(*)::int AS n FROM u GROUP BY u.event_type) t)
       SELECT c.by_type, p.* FROM c
         LEFT JOIN LATERAL (SELECT u.* FROM u ORDER BY u.created_at DESC, u.id DESC LIMIT $6 OFFSET $7) p ON true
        ORDER BY p.created_at DESC, p.id DESC`,
      [...scopeParams(s), limit, offset],
      m,
    );
    const byType = Object.entries(rows[0]?.by_type ?? {}).map(([event_type, n]) => ({ event_type: event_type as NotificationEventType, n }));
    const items = rows.filter((r) => r.id !== null).map(({ by_type, ...row }) => row);
    return { items, byType };
  }

  /**
   * One of the reader's visible notifications, read or unread, by its id or, for an
   * `attention.resolved` one, by the attention item it answers (the id wins); undefined when none.
   * Used by runner attention claims.
   */
  attentionNotice(
    s: ReaderScope,
    ref: string,
    m?: Tx,
  ): Promise<
    | { id: string; event_type: string; action_kind: string; issue_id: string | null; metadata: Record<string, unknown> | null; acknowledged_at: Date | null }
    | undefined
  > {
    return this.sql.row(
      `SELECT n.id, n.event_type, n.action_kind, n.issue_id, n.metadata, n.acknowledged_at FROM notifications n
        WHERE n.org_id = $1 AND n.recipient_member_id = $2 AND (n.id = $6 OR (n.event_type = 'attention.resolved' AND n.metadata->>'attention_item_id' = $6::text))
          AND ${VISIBLE}
        ORDER BY (n.id = $6) DESC, n.created_at DESC LIMIT 1`,
      [...scopeParams(s), ref],
      m,
    );
  }

  /** Acknowledges one of a member's notifications whatever its visibility now (a consumed runner attention claim); first time kept. */
  async acknowledgeConsumed(orgId: string, memberId: string, id: string, at: Date, m?: Tx): Promise<boolean> {
    return (
      (await this.sql.run(
        `UPDATE notifications SET acknowledged_at = coalesce(acknowledged_at, greatest($4::timestamptz, created_at))
          WHERE org_id = $1 AND recipient_member_id = $2 AND id = $3`,
        [orgId, memberId, id, at],
        m,
      )) > 0
    );
  }

  /** Acknowledges one of the reader's visible notifications (the first acknowledgement time is kept); undefined when there is none. */
  acknowledge(s: ReaderScope, id: string, at: Date, m?: Tx): Promise<{ id: string; acknowledged_at: Date } | undefined> {
    return this.sql.row<{ id: string; acknowledged_at: Date }>(
      `UPDATE notifications n SET acknowledged_at = coalesce(n.acknowledged_at, greatest($6::timestamptz, n.created_at))
        WHERE n.org_id = $1 AND n.recipient_member_id = $2 AND n.id = $7 AND ${VISIBLE}
        RETURNING n.id, n.acknowledged_at`,
      [...scopeParams(s), at, id],
      m,
    );
  }

  /** The reader's visible notifications, read or not: unread first, then newest first. */
  latestPage(s: ReaderScope, limit: number, m?: Tx): Promise<NotificationRow[]> {
    return this.sql.rows<NotificationRow>(
      `SELECT ${COLUMNS} FROM notifications n WHERE n.org_id = $1 AND n.recipient_member_id = $2 AND ${VISIBLE}
        ORDER BY (n.acknowledged_at IS NULL) DESC, n.created_at DESC, n.id DESC LIMIT $6`,
      [...scopeParams(s), limit],
      m,
    );
  }

  /** Acknowledges every visible unread notification of the reader; answers how many. */
  acknowledgeAll(s: ReaderScope, at: Date, m?: Tx): Promise<number> {
    return this.sql.run(
      `UPDATE notifications n SET acknowledged_at = greatest($6::timestamptz, n.created_at) WHERE ${MINE_UNREAD}`,
      [...scopeParams(s), at],
      m,
    );
  }
}
