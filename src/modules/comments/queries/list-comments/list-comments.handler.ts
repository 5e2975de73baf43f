import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { listResponse, parsePage } from '../../../../common/http/list';
import { toCommentResponses } from '../../comment.mapper';
import { CommentsRepository } from '../../comments.repository';
import { ListCommentsQuery } from './list-comments.query';

/** Default page size of the comment list: the interface's list default (25, max 100). */
export const COMMENTS_DEFAULT_LIMIT = 25;

/** Live comments of one readable issue, oldest first, with mention recipients. */
@QueryHandler(ListCommentsQuery)
export class ListCommentsHandler implements IQueryHandler<ListCommentsQuery> {
  constructor(
    private readonly comments: CommentsRepository,
    private readonly access: AccessPolicyService,
  ) {}

  async execute({ actor, issueId, query }: ListCommentsQuery): Promise<Record<string, unknown>> {
    const issue = await this.access.assertIssueRead(actor, issueId);
    const page = parsePage(query, { defaultLimit: COMMENTS_DEFAULT_LIMIT });
    const total = await this.comments.countLive(actor.orgId, issue.id);
    const rows = await this.comments.pageLive(actor.orgId, issue.id, page.limit, page.offset);
    return listResponse('comments', toCommentResponses(rows, await this.comments.related(actor.orgId, rows)), total, page);
  }
}
