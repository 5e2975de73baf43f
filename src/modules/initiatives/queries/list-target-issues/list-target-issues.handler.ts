import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { InitiativeScope } from '../../initiative-scope.service';
import { InitiativeTargetsRepository } from '../../initiative-targets.repository';
import { toIssueLinks } from '../../initiatives.mapper';
import type { TargetIssueListResponse } from '../../targets.response';
import { ListTargetIssuesQuery } from './list-target-issues.query';

/** Read access to the target scope; only readable links (readable projectless issues for non-guests). */
@QueryHandler(ListTargetIssuesQuery)
export class ListTargetIssuesHandler implements IQueryHandler<ListTargetIssuesQuery, TargetIssueListResponse> {
  constructor(
    private readonly targets: InitiativeTargetsRepository,
    private readonly scope: InitiativeScope,
  ) {}

  async execute({ actor, initiativeId, targetId }: ListTargetIssuesQuery): Promise<TargetIssueListResponse> {
    const ini = await this.scope.readable(actor, initiativeId);
    const t = await this.scope.target(actor, ini, targetId);
    const links = toIssueLinks(await this.targets.links.issueLinks(actor.orgId, t.id), await this.scope.visibility(actor));
    return { issues: links.map((l) => ({ target_id: t.id, initiative_id: ini.id, ...l })) };
  }
}
