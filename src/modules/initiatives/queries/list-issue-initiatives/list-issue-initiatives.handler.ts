import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import type { IssueInitiativeListResponse } from '../../initiatives.response';
import { InitiativeReader } from '../../initiative.reader';
import { ListIssueInitiativesQuery } from './list-issue-initiatives.query';

/** Needs issue access (404 otherwise); omits unreadable initiatives; always 200. */
@QueryHandler(ListIssueInitiativesQuery)
export class ListIssueInitiativesHandler implements IQueryHandler<ListIssueInitiativesQuery, IssueInitiativeListResponse> {
  constructor(
    private readonly access: AccessPolicyService,
    private readonly reader: InitiativeReader,
  ) {}

  async execute({ actor, issueId }: ListIssueInitiativesQuery): Promise<IssueInitiativeListResponse> {
    const issue = await this.access.assertIssueRead(actor, issueId);
    return { initiatives: await this.reader.issueInitiatives(actor, issue.id) };
  }
}
