import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { ANALYTICS, ReadModels } from '../../../../common/cache/read-models';
import { Errors } from '../../../../common/errors/domain-error';
import { isUuid } from '../../../../common/http/validation';
import { TeamsRepository } from '../../../teams/teams.repository';
import { toAnalyticsResponse } from '../../analytics.mapper';
import { parseRange } from '../../analytics-range';
import { AnalyticsRepository, type AnalyticsScope } from '../../analytics.repository';
import type { AnalyticsResponse } from '../../analytics.response';
import { GetAnalyticsQuery } from './get-analytics.query';

const optionalId = (query: Record<string, unknown>, camel: string, snake: string): string | null => {
  const v = query[camel] ?? query[snake];
  if (v === undefined || v === '') return null;
  if (!isUuid(v)) throw Errors.validation(`${camel} must be a UUID`);
  return v;
};

/**
 * Aggregates over the issues the caller can read now (projectless ones for non-guests); an explicit
 * `projectId` must be readable (404 otherwise), a `teamId` must be a team of the organization (404).
 * Kept per (visibility, range, project, team) under the issues data version (ReadModels ANALYTICS).
 */
@QueryHandler(GetAnalyticsQuery)
export class GetAnalyticsHandler implements IQueryHandler<GetAnalyticsQuery, AnalyticsResponse> {
  constructor(
    private readonly access: AccessPolicyService,
    private readonly analytics: AnalyticsRepository,
    private readonly teams: TeamsRepository,
    private readonly readModels: ReadModels,
  ) {}

  async execute({ actor, query }: GetAnalyticsQuery): Promise<AnalyticsResponse> {
    const range = parseRange(query);
    const projectId = optionalId(query, 'projectId', 'project_id');
    const teamId = optionalId(query, 'teamId', 'team_id');
    if (projectId) await this.access.assertProjectRead(actor, projectId);
    if (teamId && !(await this.teams.find(actor.orgId, teamId))) throw Errors.notFound('Team not found');
    const projects = await this.access.readableProjects(actor);
    const projectless = (await this.access.issueLevel(actor, null)) !== null;
    const scope: AnalyticsScope = { orgId: actor.orgId, projects, projectless, projectId, teamId, from: range.from, to: range.to };
    const visibility = projects === 'all' ? 'all' : [...projects].sort().join(',');
    const key = [visibility, projectless, range.from.toISOString(), range.to.toISOString(), projectId ?? '', teamId ?? ''].join('|');
    const aggregates = await this.readModels.serve(ANALYTICS, actor.orgId, key, () => this.analytics.aggregates(scope));
    const ids = [
      ...new Set([...aggregates.completed_by_assignee, ...aggregates.open_by_assignee].map((a) => a.assignee_id).filter((id): id is string => !!id)),
    ];
    const members = await this.analytics.members(actor.orgId, ids);
    return toAnalyticsResponse(scope, aggregates, members);
  }
}
