import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { listResponse, parsePage } from '../../../../common/http/list';
import { COMMENT_COLUMNS, type CommentRow, toCommentResponses } from '../../comment.mapper';
import { ListCommentsQuery } from './list-comments.query';

/** Default page size of the comment list: the interface's list default (25, max 100). */
export const COMMENTS_DEFAULT_LIMIT = 25;

/** Live comments of one readable issue, oldest first, with mention recipients. */
@QueryHandler(ListCommentsQuery)
export class ListCommentsHandler implements IQueryHandler<ListCommentsQuery> {
  constructor(
    private readonly db: DataSource,
    private readonly access: AccessPolicyService,
  ) {}

  async execute({ actor, issueId, query }: ListCommentsQuery): Promise<Record<string, unknown>> {
    const issue = await this.access.assertIssueRead(actor, issueId);
    const page = parsePage(query, { defaultLimit: COMMENTS_DEFAULT_LIMIT });
    const m = this.db.manager;
    const [{ total }] = await m.query(
      'SELECT count(*)::int AS total FROM comments WHERE org_id = $1 AND issue_id = $2 AND deleted_at IS NULL',
      [actor.orgId, issue.id],
    );
    const rows: CommentRow[] = await m.query(
      `SELECT ${COMMENT_COLUMNS} FROM comments c WHERE c.org_id = $1 AND c.issue_id = $2 AND c.deleted_at IS NULL
        ORDER BY c.created_at, c.id LIMIT $3 OFFSET $4`,
      [actor.orgId, issue.id, page.limit, page.offset],
    );
    return listResponse('comments', await toCommentResponses(m, actor.orgId, rows), total, page);
  }
}
