import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { Errors } from '../../../../common/errors/domain-error';
import { isUuid } from '../../../../common/http/validation';
import { toBoardContext } from '../../board-context.mapper';
import { BoardContextRepository } from '../../board-context.repository';
import type { BoardContextResponse } from '../../initiatives.response';
import { GetBoardContextQuery } from './get-board-context.query';

/**
 * The milestone and initiative focus of a project's board (any access to the project, else 404).
 * Initiatives the caller cannot read are left out (and their ids from every link); KPI impacts are
 * counted over readable KPIs only.
 */
@QueryHandler(GetBoardContextQuery)
export class GetBoardContextHandler implements IQueryHandler<GetBoardContextQuery, BoardContextResponse> {
  constructor(
    private readonly access: AccessPolicyService,
    private readonly board: BoardContextRepository,
  ) {}

  async execute({ actor, projectId }: GetBoardContextQuery): Promise<BoardContextResponse> {
    if (!isUuid(projectId)) throw Errors.notFound('Project not found');
    await this.access.assertProjectRead(actor, projectId);
    const [milestones, initiatives, issueLinks] = await Promise.all([
      this.board.milestones(actor.orgId, projectId),
      this.board.initiatives(actor.orgId, projectId),
      this.board.issueLinks(actor.orgId, projectId),
    ]);
    const readable = [];
    for (const n of initiatives) {
      if (!(await this.access.strategySetLevel(actor, n.project_id, n.linked))) continue;
      let kpis = 0;
      for (const p of n.kpi_projects) if (await this.access.strategyLevel(actor, p)) kpis++;
      readable.push({ ...n, kpi_impact_count: kpis });
    }
    return toBoardContext(milestones, readable, issueLinks);
  }
}
