import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { readIssueLabels } from '../../issue-labels.reader';
import type { IssueLabelListResponse } from '../../issue-labels.response';
import { ListIssueLabelsQuery } from './list-issue-labels.query';

@QueryHandler(ListIssueLabelsQuery)
export class ListIssueLabelsHandler implements IQueryHandler<ListIssueLabelsQuery, IssueLabelListResponse> {
  constructor(
    private readonly db: DataSource,
    private readonly access: AccessPolicyService,
  ) {}

  async execute({ actor, issueId }: ListIssueLabelsQuery): Promise<IssueLabelListResponse> {
    const issue = await this.access.assertIssueRead(actor, issueId);
    return { labels: await readIssueLabels(this.db.manager, actor.orgId, issue.id) };
  }
}
