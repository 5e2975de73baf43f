import type { EntityManager } from 'typeorm';
import type { CommentEntity } from './entities/comment.entity';

export interface MemberSummary {
  id: string;
  display_name: string;
  type: 'human' | 'agent';
  avatar_url: string | null;
}

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

export const COMMENT_COLUMNS =
  'c.id, c.issue_id, c.author_type, c.author_member_id, c.body, c.reply_to_comment_id, c.source_metadata, c.edited_at, c.deleted_at, c.created_at, c.updated_at';

export const rowOf = (c: CommentEntity): CommentRow => ({
  id: c.id,
  issue_id: c.issueId,
  author_type: c.authorType,
  author_member_id: c.authorMemberId,
  body: c.body,
  reply_to_comment_id: c.replyToCommentId,
  source_metadata: c.sourceMetadata,
  edited_at: c.editedAt,
  deleted_at: c.deletedAt,
  created_at: c.createdAt,
  updated_at: c.updatedAt,
});

const iso = (d: Date | string | null): string | null => (d === null ? null : new Date(d).toISOString());

/**
 * Builds the response records of some comments of one organization: author (current member
 * projection), shallow parent (kept when the parent was soft-deleted; never its body) and the
 * persisted mention recipients.
 */
export async function toCommentResponses(m: EntityManager, orgId: string, rows: CommentRow[]): Promise<Array<Record<string, unknown>>> {
  if (!rows.length) return [];
  const parentIds = [...new Set(rows.map((r) => r.reply_to_comment_id).filter((x): x is string => !!x))];
  const parents = new Map<string, { id: string; author_member_id: string | null; author_type: string; source_metadata: Record<string, string> | null; deleted_at: Date | null; created_at: Date }>();
  if (parentIds.length) {
    const pr: any[] = await m.query(
      'SELECT id, author_member_id, author_type, source_metadata, deleted_at, created_at FROM comments WHERE org_id = $1 AND id = ANY($2::uuid[])',
      [orgId, parentIds],
    );
    for (const p of pr) parents.set(p.id, p);
  }
  const memberIds = [...new Set(rows.map((r) => r.author_member_id).filter((x): x is string => !!x))];
  const members = new Map<string, MemberSummary>();
  if (memberIds.length) {
    const mr: any[] = await m.query('SELECT id, display_name, type, avatar_url FROM members WHERE org_id = $1 AND id = ANY($2::uuid[])', [orgId, memberIds]);
    for (const x of mr) members.set(x.id, { id: x.id, display_name: x.display_name, type: x.type, avatar_url: x.avatar_url ?? null });
  }
  const mentions = new Map<string, Array<{ id: string; display_name: string; type: string }>>();
  const mt: any[] = await m.query(
    `SELECT cm.comment_id, mb.id, mb.display_name, mb.type FROM comment_mentions cm
       JOIN members mb ON mb.org_id = cm.org_id AND mb.id = cm.member_id
      WHERE cm.org_id = $1 AND cm.comment_id = ANY($2::uuid[]) ORDER BY cm.created_at, mb.display_name, mb.id`,
    [orgId, rows.map((r) => r.id)],
  );
  for (const x of mt) {
    const list = mentions.get(x.comment_id) ?? [];
    list.push({ id: x.id, display_name: x.display_name, type: x.type });
    mentions.set(x.comment_id, list);
  }
  return rows.map((r) => {
    const p = r.reply_to_comment_id ? parents.get(r.reply_to_comment_id) : undefined;
    return {
      id: r.id,
      issue_id: r.issue_id,
      body: r.body,
      author_type: r.author_type,
      author_id: r.author_member_id,
      author: r.author_member_id ? (members.get(r.author_member_id) ?? null) : null,
      reply_to_comment_id: r.reply_to_comment_id,
      reply_to_comment: p
        ? {
            id: p.id,
            author_id: p.author_member_id,
            author_type: p.author_type,
            source_metadata: p.author_type === 'automation' ? null : (p.source_metadata ?? null),
            deleted: p.deleted_at !== null,
            created_at: iso(p.created_at),
          }
        : null,
      source_metadata: r.author_type === 'automation' ? null : (r.source_metadata ?? null),
      mentioned_members: mentions.get(r.id) ?? [],
      edited_at: iso(r.edited_at),
      created_at: iso(r.created_at)!,
      updated_at: iso(r.updated_at)!,
    };
  });
}

/** A live (not deleted) comment of one issue, or null. */
export async function findLiveComment(m: EntityManager, orgId: string, issueId: string, commentId: string): Promise<CommentRow | null> {
  const rows: CommentRow[] = await m.query(
    `SELECT ${COMMENT_COLUMNS} FROM comments c WHERE c.org_id = $1 AND c.issue_id = $2 AND c.id = $3 AND c.deleted_at IS NULL`,
    [orgId, issueId, commentId],
  );
  return rows[0] ?? null;
}
