import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { prLinkResponse } from '../../github.mapper';
import type { PrLinkListResponse } from '../../github.response';
import { PrLinksRepository } from '../../pr-links.repository';
import { ListPrLinksQuery } from './list-pr-links.query';

/** Pull-request links of a readable issue, oldest first. */
@QueryHandler(ListPrLinksQuery)
export class ListPrLinksHandler implements IQueryHandler<ListPrLinksQuery, PrLinkListResponse> {
  constructor(
    private readonly access: AccessPolicyService,
    private readonly links: PrLinksRepository,
  ) {}

  async execute({ actor, issueId }: ListPrLinksQuery): Promise<PrLinkListResponse> {
    const issue = await this.access.assertIssueRead(actor, issueId);
    return { pr_links: (await this.links.listForIssue(actor.orgId, issue.id)).map(prLinkResponse) };
  }
}
