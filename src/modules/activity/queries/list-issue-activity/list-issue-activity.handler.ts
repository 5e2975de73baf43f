import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { PendingActivity } from '../../activity-recorder.handler';
import { ActivityRedaction } from '../../activity-redaction.service';
import { ACTIVITY_COLUMNS, ACTOR_JOIN, type ActivityRow, toActivityResponse } from '../../activity.mapper';
import { parseIssueActivityPage } from '../../activity.paging';
import type { IssueActivityResponse } from '../../activity.response';
import { ListIssueActivityQuery } from './list-issue-activity.query';

/** The timeline of one readable issue, newest first. */
@QueryHandler(ListIssueActivityQuery)
export class ListIssueActivityHandler implements IQueryHandler<ListIssueActivityQuery> {
  constructor(
    private readonly db: DataSource,
    private readonly access: AccessPolicyService,
    private readonly pending: PendingActivity,
    private readonly redaction: ActivityRedaction,
  ) {}

  async execute({ actor, issueId, query }: ListIssueActivityQuery): Promise<IssueActivityResponse> {
    const issue = await this.access.assertIssueRead(actor, issueId);
    const page = parseIssueActivityPage(query);
    await this.pending.settle();
    const rows: ActivityRow[] = await this.db.query(
      `SELECT ${ACTIVITY_COLUMNS} FROM activity_events e ${ACTOR_JOIN}
        WHERE e.org_id = $1 AND e.issue_id = $2
        ORDER BY e.created_at DESC, e.id DESC LIMIT $3 OFFSET $4`,
      [actor.orgId, issue.id, page.limit + 1, page.offset],
    );
    const hasMore = rows.length > page.limit;
    const shown = rows.slice(0, page.limit);
    await this.redaction.apply(actor, shown);
    const data = shown.map(toActivityResponse) as never[];
    return { data, items: data, limit: page.limit, offset: page.offset, hasMore };
  }
}
