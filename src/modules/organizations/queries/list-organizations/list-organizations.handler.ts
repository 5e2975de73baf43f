import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { listResponse } from '../../../../common/http/list';
import type { OrgRole } from '../../../members/entities/member.entity';
import { ListOrganizationsQuery } from './list-organizations.query';

/** Humans: every organization they belong to. Agents: the organization of their key. */
@QueryHandler(ListOrganizationsQuery)
export class ListOrganizationsHandler implements IQueryHandler<ListOrganizationsQuery> {
  constructor(private readonly db: DataSource) {}

  async execute({ principal, page }: ListOrganizationsQuery): Promise<Record<string, unknown>> {
    const [where, param] =
      principal.kind === 'human' ? ['m.user_id = $1', principal.userId] : ['m.id = $1 AND m.org_id = $4', principal.memberId];
    const params: unknown[] = [param, page.limit, page.offset];
    if (principal.kind === 'agent') params.push(principal.orgId);
    const rows: Array<Record<string, any>> = await this.db.query(
      `SELECT o.id, o.name, o.issue_prefix, o.plan, o.created_at, o.updated_at, m.role, count(*) OVER()::int AS total
         FROM members m JOIN organizations o ON o.id = m.org_id
        WHERE ${where} AND m.removed_at IS NULL
        ORDER BY m.created_at, o.id LIMIT $2 OFFSET $3`,
      params,
    );
    const items = rows.map((r) => ({
      id: r.id,
      name: r.name,
      issue_prefix: r.issue_prefix,
      plan: r.plan,
      role: r.role as OrgRole,
      created_at: new Date(r.created_at).toISOString(),
      updated_at: new Date(r.updated_at).toISOString(),
    }));
    let total = rows[0]?.total ?? 0;
    if (!rows.length && page.offset > 0) {
      const c: Array<{ n: number }> = await this.db.query(
        `SELECT count(*)::int AS n FROM members m WHERE ${where.replace('$4', '$2')} AND m.removed_at IS NULL`,
        principal.kind === 'agent' ? [param, principal.orgId] : [param],
      );
      total = c[0].n;
    }
    return listResponse('organizations', items, total, page);
  }
}
