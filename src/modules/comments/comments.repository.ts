import { Injectable } from '@nestjs/common';
import { type Tx, Sql } from '../../database/sql.service';

/** Comment row as read with raw SQL (snake_case columns). */
export interface CommentRow {
  id: string;
  issue_id: string;
  author_type: 'member' | 'automation';
  author_member_id: string | null;
  body: string;
  reply_to_comment_id: string | null;
  source_metadata: Record<string, string> | null;
  edited_at: Date | null;
  deleted_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

/** The shallow view of a comment replied to (kept when it was soft-deleted; its body only while live). */
export interface ParentCommentRow {
  id: string;
  /** Sanitized HTML; the response drops it once the parent is deleted */
  body: string;
  author_member_id: string | null;
  author_type: string;
  source_metadata: Record<string, string> | null;
  deleted_at: Date | null;
  created_at: Date;
}

/** The current member projection of a comment author. */
export interface CommentAuthorRow {
  id: string;
  display_name: string;
  type: 'human' | 'agent';
  avatar_url: string | null;
}

/** A persisted mention recipient of a comment. */
export interface CommentMentionRow {
  comment_id: string;
  id: string;
  display_name: string;
  type: string;
}

/** What a comment response shows beyond its row: parents replied to, authors, mention recipients. */
export interface CommentRelated {
  parents: ParentCommentRow[];
  authors: CommentAuthorRow[];
  mentions: CommentMentionRow[];
}

const COMMENT_COLUMNS =
  'c.id, c.issue_id, c.author_type, c.author_member_id, c.body, c.reply_to_comment_id, c.source_metadata, c.edited_at, c.deleted_at, c.created_at, c.updated_at';

/**
 * Rows (issue_id, rank) of the live comments of organization `$1` matching the text-search query
 * `tsquery` (an SQL expression), `rank` the comment's ts_rank: the comments' part of the issue
 * search statement (IssueListRepository.search), on comments_search_idx (migration 1765540000000).
 */
export function commentMatchesSql(tsquery: string): string {
  return `SELECT c.issue_id, ts_rank(c.search_vector, ${tsquery}) AS rank
            FROM comments c WHERE c.org_id = $1 AND c.deleted_at IS NULL AND c.search_vector @@ ${tsquery}`;
}

/** Statements of issue comments (`comments`) and their mentions (`comment_mentions`). */
@Injectable()
export class CommentsRepository {
  constructor(private readonly sql: Sql) {}

  /** Inserts one comment. */
  async insert(c: Omit<CommentRow, 'deleted_at'> & { org_id: string; deleted_at: null }, m: Tx): Promise<void> {
    await this.sql.run(
      `INSERT INTO comments (org_id, id, issue_id, author_type, author_member_id, body, reply_to_comment_id, source_metadata, edited_at, deleted_at, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
      [
        c.org_id,
        c.id,
        c.issue_id,
        c.author_type,
        c.author_member_id,
        c.body,
        c.reply_to_comment_id,
        c.source_metadata,
        c.edited_at,
        c.deleted_at,
        c.created_at,
        c.updated_at,
      ],
      m,
    );
  }

  /** A live (not deleted) comment of one issue, or undefined. */
  findLive(orgId: string, issueId: string, commentId: string, m?: Tx): Promise<CommentRow | undefined> {
    return this.sql.row<CommentRow>(
      `SELECT ${COMMENT_COLUMNS} FROM comments c WHERE c.org_id = $1 AND c.issue_id = $2 AND c.id = $3 AND c.deleted_at IS NULL`,
      [orgId, issueId, commentId],
      m,
    );
  }

  /** A live comment of one issue as a reply target (its author; the shallow view a reply shows), or undefined. */
  replyTarget(orgId: string, issueId: string, commentId: string, m?: Tx): Promise<ParentCommentRow | undefined> {
    return this.sql.row<ParentCommentRow>(
      'SELECT id, body, author_member_id, author_type, source_metadata, deleted_at, created_at FROM comments WHERE org_id = $1 AND id = $2 AND issue_id = $3 AND deleted_at IS NULL',
      [orgId, commentId, issueId],
      m,
    );
  }

  /** Soft-deletes a live comment at `at`; answers the rows changed (0 or 1). */
  softDelete(orgId: string, issueId: string, commentId: string, at: Date, m: Tx): Promise<number> {
    return this.sql.run(
      'UPDATE comments SET deleted_at = $4, updated_at = $4 WHERE org_id = $1 AND issue_id = $2 AND id = $3 AND deleted_at IS NULL',
      [orgId, issueId, commentId, at],
      m,
    );
  }

  /** Replaces the body of a live comment, edited at `at`; answers the rows changed (0 or 1). */
  updateBody(orgId: string, issueId: string, commentId: string, body: string, at: Date, m: Tx): Promise<number> {
    return this.sql.run(
      `UPDATE comments SET body = $4, edited_at = $5, updated_at = $5 WHERE org_id = $1 AND issue_id = $2 AND id = $3 AND deleted_at IS NULL`,
      [orgId, issueId, commentId, body, at],
      m,
    );
  }

  /** Number of live comments of one issue. */
  async countLive(orgId: string, issueId: string): Promise<number> {
    const row = await this.sql.row<{ total: number }>(
      'SELECT count(*)::int AS total FROM comments WHERE org_id = $1 AND issue_id = $2 AND deleted_at IS NULL',
      [orgId, issueId],
    );
    return row?.total ?? 0;
  }

  /** One page of the live comments of one issue, oldest first. */
  pageLive(orgId: string, issueId: string, limit: number, offset: number): Promise<CommentRow[]> {
    return this.sql.rows<CommentRow>(
      `SELECT ${COMMENT_COLUMNS} FROM comments c WHERE c.org_id = $1 AND c.issue_id = $2 AND c.deleted_at IS NULL
        ORDER BY c.created_at, c.id LIMIT $3 OFFSET $4`,
      [orgId, issueId, limit, offset],
    );
  }

  /** Records that `memberId` is mentioned in comment `commentId`; false when it already was. */
  async addMention(orgId: string, commentId: string, memberId: string, at: Date, m: Tx): Promise<boolean> {
    const rows = await this.sql.rows(
      `INSERT INTO comment_mentions (org_id, comment_id, member_id, created_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT DO NOTHING RETURNING member_id`,
      [orgId, commentId, memberId, at],
      m,
    );
    return rows.length > 0;
  }

  /**
   * What the responses of `rows` show beyond the rows: the comments they reply to, their authors
   * (a look-up of the members module's data) and their mention recipients.
   */
  async related(orgId: string, rows: CommentRow[], m?: Tx): Promise<CommentRelated> {
    const out: CommentRelated = { parents: [], authors: [], mentions: [] };
    if (!rows.length) return out;
    const parentIds = [...new Set(rows.map((r) => r.reply_to_comment_id).filter((x): x is string => !!x))];
    if (parentIds.length) {
      out.parents = await this.sql.rows<ParentCommentRow>(
        'SELECT id, author_member_id, author_type, body, source_metadata, deleted_at, created_at FROM comments WHERE org_id = $1 AND id = ANY($2::uuid[])',
        [orgId, parentIds],
        m,
      );
    }
    const memberIds = [...new Set(rows.map((r) => r.author_member_id).filter((x): x is string => !!x))];
    if (memberIds.length) {
      out.authors = await this.sql.rows<CommentAuthorRow>(
        'SELECT id, display_name, type, avatar_url FROM members WHERE org_id = $1 AND id = ANY($2::uuid[])',
        [orgId, memberIds],
        m,
      );
    }
    out.mentions = await this.sql.rows<CommentMentionRow>(
      `SELECT cm.comment_id, mb.id, mb.display_name, mb.type FROM comment_mentions cm
       JOIN members mb ON mb.org_id = cm.org_id AND mb.id = cm.member_id
      WHERE cm.org_id = $1 AND cm.comment_id = ANY($2::uuid[]) ORDER BY cm.created_at, mb.display_name, mb.id`,
      [orgId, rows.map((r) => r.id)],
      m,
    );
    return out;
  }
}
