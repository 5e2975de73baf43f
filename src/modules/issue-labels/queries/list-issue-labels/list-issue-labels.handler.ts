import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { IssuesRepository } from '../../../issues/issues.repository';
import { toIssueLabelResponse } from '../../issue-labels.mapper';
import type { IssueLabelListResponse } from '../../issue-labels.response';
import { ListIssueLabelsQuery } from './list-issue-labels.query';

@QueryHandler(ListIssueLabelsQuery)
export class ListIssueLabelsHandler implements IQueryHandler<ListIssueLabelsQuery, IssueLabelListResponse> {
  constructor(
    private readonly issues: IssuesRepository,
    private readonly access: AccessPolicyService,
  ) {}

  async execute({ actor, issueId }: ListIssueLabelsQuery): Promise<IssueLabelListResponse> {
    const issue = await this.access.assertIssueRead(actor, issueId);
    return { labels: (await this.issues.labelsOf(actor.orgId, issue.id)).map(toIssueLabelResponse) };
  }
}
