import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { ISSUE_SEARCH, ReadModels } from '../../../../common/cache/read-models';
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
 * paging and shapes. Kept per (visibility, text, candidates, archive inclusion, page) under the
 * issues and search versions (read model ISSUE_SEARCH).
 */
@QueryHandler(SearchIssuesQuery)
export class SearchIssuesHandler implements IQueryHandler<SearchIssuesQuery> {
  constructor(
    private readonly access: AccessPolicyService,
    private readonly references: IssueReferenceResolver,
    private readonly list: IssueListRepository,
    private readonly readModels: ReadModels,
  ) {}

  async execute({ actor, params }: SearchIssuesQuery): Promise<Record<string, unknown>> {
    const { q, page, includeArchived } = params;
    const readable = await this.access.readableProjects(actor);
    if (readable !== 'all' && readable.length === 0) return listResponse('issues', [], 0, page);
    const exactIds = (await this.references.candidates(actor, q)).map((r) => r.id).sort();
    const key = JSON.stringify([readable === 'all' ? 'all' : [...readable].sort(), q, exactIds, includeArchived, page.limit, page.offset]);
    const { items, total } = await this.readModels.serve(ISSUE_SEARCH, actor.orgId, key, async () => {
      const found = await this.list.search(
        actor.orgId,
        { q, titlePattern: TRIGRAM_RE.test(q) ? likePattern(q) : null, exactIds, includeArchived, page },
        readable,
      );
      return { items: found.rows.map(toIssueRecord), total: found.total };
    });
    return listResponse('issues', items, total, page);
  }
}
