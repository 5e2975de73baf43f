import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { ActivityRedaction } from '../../activity-redaction.service';
import { toActivityResponse } from '../../activity.mapper';
import { parseIssueActivityPage } from '../../activity.paging';
import { ActivityRepository } from '../../activity.repository';
import type { IssueActivityResponse } from '../../activity.response';
import { ListIssueActivityQuery } from './list-issue-activity.query';

/** The timeline of one readable issue, newest first. */
@QueryHandler(ListIssueActivityQuery)
export class ListIssueActivityHandler implements IQueryHandler<ListIssueActivityQuery> {
  constructor(
    private readonly activity: ActivityRepository,
    private readonly access: AccessPolicyService,
    private readonly redaction: ActivityRedaction,
  ) {}

  async execute({ actor, issueId, query }: ListIssueActivityQuery): Promise<IssueActivityResponse> {
    const issue = await this.access.assertIssueRead(actor, issueId);
    const page = parseIssueActivityPage(query);
    const rows = await this.activity.issuePage(actor.orgId, issue.id, page.limit + 1, page.offset);
    const hasMore = rows.length > page.limit;
    const shown = rows.slice(0, page.limit);
    await this.redaction.apply(actor, shown);
    const data = shown.map(toActivityResponse) as never[];
    return { data, items: data, limit: page.limit, offset: page.offset, hasMore };
  }
}
