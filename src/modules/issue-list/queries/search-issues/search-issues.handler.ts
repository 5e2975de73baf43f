import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { listResponse } from '../../../../common/http/list';
import { IssueReferenceResolver } from '../../../issues/issue-reference.resolver';
import { toIssueRecord } from '../../issue-record';
import { IssueListRepository } from '../../issue-list.repository';
import { likePattern } from '../../list-params';
import { SearchIssuesQuery } from './search-issues.query';

/** Three letters or digits in a row: the least a trigram index can look up (a shorter pattern would read the whole index). */
const TRIGRAM_RE = /[\p{L}\p{N}]{3}/u;

/**
 * GET /issues/search: the issues the caller can read (the list's visibility: readable projects,
 * projectless issues for non-guests; archived ones only with includeArchived) matching `q` in the
 * title, the description or a live comment, plus the issues `q` names as a reference (the issue
 * detail route's forms, through IssueReferenceResolver), ranked first. Full list items, the list's
 * paging and shapes. Not kept per process: a search reads comments, which no data version covers.
 */
@QueryHandler(SearchIssuesQuery)
export class SearchIssuesHandler implements IQueryHandler<SearchIssuesQuery> {
  constructor(
    private readonly access: AccessPolicyService,
    private readonly references: IssueReferenceResolver,
    private readonly list: IssueListRepository,
  ) {}

  async execute({ actor, params }: SearchIssuesQuery): Promise<Record<string, unknown>> {
    const { q, page, includeArchived } = params;
    const readable = await this.access.readableProjects(actor);
    if (readable !== 'all' && readable.length === 0) return listResponse('issues', [], 0, page);
    const exact = await this.references.candidates(actor, q);
    const { rows, total } = await this.list.search(
      actor.orgId,
      { q, titlePattern: TRIGRAM_RE.test(q) ? likePattern(q) : null, exactIds: exact.map((r) => r.id), includeArchived, page },
      readable,
    );
    return listResponse('issues', rows.map(toIssueRecord), total, page);
  }
}
