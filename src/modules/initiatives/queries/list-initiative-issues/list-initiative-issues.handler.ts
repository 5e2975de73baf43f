import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { InitiativeScope } from '../../initiative-scope.service';
import { toInitiativeIssueLink, toIssueLinks } from '../../initiatives.mapper';
import { InitiativesRepository } from '../../initiatives.repository';
import type { InitiativeIssueListResponse } from '../../initiatives.response';
import { ListInitiativeIssuesQuery } from './list-initiative-issues.query';

/** Readable initiative; only links to readable issues; `details=1` adds the issue projection. */
@QueryHandler(ListInitiativeIssuesQuery)
export class ListInitiativeIssuesHandler implements IQueryHandler<ListInitiativeIssuesQuery, InitiativeIssueListResponse> {
  constructor(
    private readonly initiatives: InitiativesRepository,
    private readonly scope: InitiativeScope,
  ) {}

  async execute({ actor, initiativeId, details }: ListInitiativeIssuesQuery): Promise<InitiativeIssueListResponse> {
    const ini = await this.scope.readable(actor, initiativeId);
    const links = toIssueLinks(await this.initiatives.links.issueLinks(actor.orgId, ini.id), await this.scope.visibility(actor));
    return { issues: links.map((l) => toInitiativeIssueLink(ini.id, l, details)) };
  }
}
