import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { InitiativeScope } from '../../initiative-scope.service';
import { readIssueLinks, toInitiativeIssueLink } from '../../initiatives.mapper';
import type { InitiativeIssueListResponse } from '../../initiatives.response';
import { ListInitiativeIssuesQuery } from './list-initiative-issues.query';

/** Readable initiative; only links to readable issues; `details=1` adds the issue projection. */
@QueryHandler(ListInitiativeIssuesQuery)
export class ListInitiativeIssuesHandler implements IQueryHandler<ListInitiativeIssuesQuery, InitiativeIssueListResponse> {
  constructor(
    private readonly db: DataSource,
    private readonly scope: InitiativeScope,
  ) {}

  async execute({ actor, initiativeId, details }: ListInitiativeIssuesQuery): Promise<InitiativeIssueListResponse> {
    const ini = await this.scope.readable(actor, initiativeId);
    const links = await readIssueLinks(this.db.manager, actor.orgId, { table: 'initiative_issues', ownerColumn: 'initiative_id', ownerId: ini.id }, await this.scope.visibility(actor));
    return { issues: links.map((l) => toInitiativeIssueLink(ini.id, l, details)) };
  }
}
