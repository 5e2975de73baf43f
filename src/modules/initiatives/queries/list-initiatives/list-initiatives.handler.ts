import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { Errors } from '../../../../common/errors/domain-error';
import { listResponse, parsePage } from '../../../../common/http/list';
import { isUuid } from '../../../../common/http/validation';
import { INITIATIVE_STATUSES } from '../../initiative-input';
import { InitiativeScope } from '../../initiative-scope.service';
import { toInitiativeResponse } from '../../initiatives.mapper';
import { InitiativesRepository } from '../../initiatives.repository';
import { ListInitiativesQuery } from './list-initiatives.query';

function one(query: Record<string, unknown>, ...names: string[]): string | undefined {
  let out: string | undefined;
  for (const n of names) {
    const v = query[n];
    if (v === undefined) continue;
    if (typeof v !== 'string') throw Errors.validation(`${n} must be given once`);
    if (out !== undefined && out !== v) throw Errors.validation(`${names.join(' and ')} disagree`);
    out = v;
  }
  return out;
}

function uuidFilter(query: Record<string, unknown>, ...names: string[]): string | undefined {
  const v = one(query, ...names);
  if (v === undefined) return undefined;
  if (!isUuid(v)) throw Errors.validation(`${names[0]} must be a UUID`);
  return v.toLowerCase();
}

/**
 * Initiatives the caller can read, newest first. Filters `goal_id`, `status` (one exact status or
 * a comma list), `owner_id`, `project_id` (primary or linked; an unreadable project is 404, as in
 * the issue list). Legacy `{ initiatives, total, limit, offset }` or the envelope.
 */
@QueryHandler(ListInitiativesQuery)
export class ListInitiativesHandler implements IQueryHandler<ListInitiativesQuery> {
  constructor(
    private readonly initiatives: InitiativesRepository,
    private readonly access: AccessPolicyService,
    private readonly scope: InitiativeScope,
  ) {}

  async execute({ actor, query }: ListInitiativesQuery): Promise<Record<string, unknown>> {
    const page = parsePage(query);
    const goalId = uuidFilter(query, 'goal_id', 'goalId');
    const ownerId = uuidFilter(query, 'owner_id', 'ownerId');
    const projectId = uuidFilter(query, 'project_id', 'projectId');
    const statusRaw = one(query, 'status');
    const statuses = statusRaw === undefined ? undefined : statusRaw.split(',').map((s) => s.trim());
    if (statuses && !statuses.every((s) => (INITIATIVE_STATUSES as readonly string[]).includes(s))) {
      throw Errors.validation(`status must be one of ${INITIATIVE_STATUSES.join(', ')}`);
    }
    if (projectId) await this.access.assertProjectRead(actor, projectId);
    const vis = await this.scope.visibility(actor);
    const { rows, total } = await this.initiatives.page(
      actor.orgId,
      { readableProjectIds: vis.projectIds, goalId, ownerId, statuses, projectId },
      page.limit,
      page.offset,
    );
    return listResponse(
      'initiatives',
      rows.map((r) => toInitiativeResponse(r, vis)),
      total,
      page,
    );
  }
}
