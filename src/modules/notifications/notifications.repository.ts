import { Injectable } from '@nestjs/common';
import { Sql, type Tx } from '../../database/sql.service';

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

/** `notifications`: what the fan-out writes (the reads are NotificationsReader's). */
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
    return this.sql.row<{ source_metadata: Record<string, unknown> | null }>('SELECT source_metadata FROM comments WHERE org_id = $1 AND id = $2', [orgId, commentId], m);
  }

  /** Writes one notification; a second one for the same recipient and cause is ignored. */
  async insertOnce(n: NewNotificationRow, m?: Tx): Promise<void> {
    await this.sql.run(
      `INSERT INTO notifications (org_id, id, recipient_member_id, event_type, severity, action_kind, cause_id, issue_id, project_id,
                                  comment_id, reply_to_comment_id, actor_member_id, actor_type, title, metadata, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15::jsonb, $16)
       ON CONFLICT (org_id, recipient_member_id, cause_id) WHERE cause_id IS NOT NULL DO NOTHING`,
      [
        n.orgId, n.id, n.recipientMemberId, n.eventType, n.severity, n.actionKind, n.causeId, n.issueId, n.projectId,
        n.commentId, n.replyToCommentId, n.actorMemberId, n.actorType, n.title, JSON.stringify(n.metadata), n.createdAt,
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
}
