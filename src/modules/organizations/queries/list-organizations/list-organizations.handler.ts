import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { listResponse } from '../../../../common/http/list';
import { type OrganizationsOf, OrganizationsRepository } from '../../organizations.repository';
import { ListOrganizationsQuery } from './list-organizations.query';

/** Humans: every organization they belong to. Agents: the organization of their key. */
@QueryHandler(ListOrganizationsQuery)
export class ListOrganizationsHandler implements IQueryHandler<ListOrganizationsQuery> {
  constructor(private readonly organizations: OrganizationsRepository) {}

  async execute({ principal, page }: ListOrganizationsQuery): Promise<Record<string, unknown>> {
    const of: OrganizationsOf =
      principal.kind === 'human' ? { kind: 'human', userId: principal.userId } : { kind: 'agent', memberId: principal.memberId, orgId: principal.orgId };
    const rows = await this.organizations.list(of, page);
    const items = rows.map((r) => ({
      id: r.id,
      name: r.name,
      issue_prefix: r.issue_prefix,
      plan: r.plan,
      role: r.role,
      created_at: new Date(r.created_at).toISOString(),
      updated_at: new Date(r.updated_at).toISOString(),
    }));
    let total = rows[0]?.total ?? 0;
    if (!rows.length && page.offset > 0) total = await this.organizations.count(of);
    return listResponse('organizations', items, total, page);
  }
}
