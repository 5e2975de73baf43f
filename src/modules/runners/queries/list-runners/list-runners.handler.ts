import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { RunnerVisibility } from '../../runner-visibility.service';
import { toRunner } from '../../runners.mapper';
import { RunnersRepository } from '../../runners.repository';
import type { RunnerListResponse } from '../../runners.response';
import { ListRunnersQuery } from './list-runners.query';

/** Current installations the human manages, most recently seen first (at most 500). */
@QueryHandler(ListRunnersQuery)
export class ListRunnersHandler implements IQueryHandler<ListRunnersQuery, RunnerListResponse> {
  constructor(
    private readonly runners: RunnersRepository,
    private readonly visibility: RunnerVisibility,
  ) {}

  async execute({ actor }: ListRunnersQuery): Promise<RunnerListResponse> {
    const agents = await this.visibility.manageableAgents(actor);
    const rows = agents !== null && !agents.length ? [] : await this.runners.list(actor.orgId, agents);
    return { runners: rows.map(toRunner), total: rows.length };
  }
}
