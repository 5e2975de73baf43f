import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { Errors } from '../../../../common/errors/domain-error';
import { envelope, parsePage } from '../../../../common/http/list';
import { isUuid } from '../../../../common/http/validation';
import type { MemberType } from '../../entities/member.entity';
import { toMemberResponse } from '../../member.mapper';
import { type MemberFilter, MembersRepository } from '../../members.repository';
import type { DirectoryItem } from '../../members.response';
import { ListMembersQuery } from './list-members.query';

const DIRECTORY_TRIGGERS = ['q', 'limit', 'offset'];

function str(query: Record<string, unknown>, name: string): string | undefined {
  const v = query[name];
  if (v === undefined) return undefined;
  if (typeof v !== 'string') throw Errors.validation(`${name} must be given once as a plain value`);
  return v;
}

/**
 * `GET /members`: the legacy list unless directory mode is selected (`shape=envelope`, or any of
 * `q`, `limit`, `offset`). The directory returns exactly five fields per item, an exact total,
 * and excludes guests unless scoped to a project (then guests with access to it are included).
 */
@QueryHandler(ListMembersQuery)
export class ListMembersHandler implements IQueryHandler<ListMembersQuery> {
  constructor(
    private readonly members: MembersRepository,
    private readonly access: AccessPolicyService,
  ) {}

  async execute({ actor, query }: ListMembersQuery): Promise<unknown> {
    const page = parsePage(query);
    const directory = page.envelope || DIRECTORY_TRIGGERS.some((k) => query[k] !== undefined);
    const type = str(query, 'type');
    if (type !== undefined && type !== 'human' && type !== 'agent') throw Errors.validation('type must be human or agent');
    const projectId = str(query, 'projectId') ?? str(query, 'project_id');
    const q = str(query, 'q');
    if (q !== undefined && q.length > 200) throw Errors.validation('q must be at most 200 characters');

    if (projectId !== undefined) {
      if (!isUuid(projectId)) throw Errors.notFound('Project not found');
      await this.access.assertProjectRead(actor, projectId);
    }
    const filter: MemberFilter = {
      type: type as MemberType | undefined,
      projectId,
      excludeGuests: projectId === undefined && (directory || !actor.isOwnerOrAdmin),
      q: q || undefined,
    };

    if (!directory) {
      const rows = await this.members.list(actor.orgId, filter);
      return { members: rows.map((r) => toMemberResponse(r, actor.isOwnerOrAdmin)), total: rows.length };
    }

    const rows = await this.members.directory(actor.orgId, filter, page);
    let total = rows[0]?.total;
    if (total === undefined) {
      total = page.offset === 0 ? 0 : await this.members.count(actor.orgId, filter);
    }
    const items: DirectoryItem[] = rows.map((r) => ({ id: r.id, display_name: r.display_name, type: r.type, role: r.role, avatar_url: r.avatar_url ?? null }));
    return envelope('members', items, total, page);
  }
}
