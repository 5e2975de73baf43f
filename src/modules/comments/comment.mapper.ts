import type { MentionOutcome } from './comment-writer.service';
import type { CommentOutcomeResponse } from './comments.response';
import type { CommentAuthorRow, CommentRelated, CommentRow } from './comments.repository';

export type { CommentRow } from './comments.repository';

/** The current member projection of a comment author. */
export type MemberSummary = CommentAuthorRow;

const iso = (d: Date | string | null): string | null => (d === null ? null : new Date(d).toISOString());

/**
 * The `outcome` of a response that created a comment (POST comments, issue PATCH `comment_body`):
 * the mention fan-out and, reported on its own, the comment's durability (it is committed when
 * the response is sent).
 */
export function toCommentOutcome(created: { comment: Record<string, unknown>; mentions: MentionOutcome }): CommentOutcomeResponse {
  return { mentions: created.mentions as CommentOutcomeResponse['mentions'], persistence: { status: 'persisted', comment_id: created.comment.id as string } };
}

/**
 * The response records of some comments of one organization: author (current member
 * projection), shallow parent (kept when the parent was soft-deleted, then without its body) and
 * the persisted mention recipients, from CommentsRepository.related.
 */
export function toCommentResponses(rows: CommentRow[], related: CommentRelated): Array<Record<string, unknown>> {
  const parents = new Map(related.parents.map((p) => [p.id, p]));
  const members = new Map<string, MemberSummary>(
    related.authors.map((x) => [x.id, { id: x.id, display_name: x.display_name, type: x.type, avatar_url: x.avatar_url ?? null }]),
  );
  const mentions = new Map<string, Array<{ id: string; display_name: string; type: string }>>();
  for (const x of related.mentions) {
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
            body: p.deleted_at === null ? p.body : null,
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
