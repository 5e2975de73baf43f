import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { Sql } from '../../../../database/sql.service';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { Errors } from '../../../../common/errors/domain-error';
import { envelope, parsePage } from '../../../../common/http/list';
import { isUuid } from '../../../../common/http/validation';
import { MEMBER_COLUMNS, toMemberResponse } from '../../member.mapper';
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
    private readonly db: DataSource,
    private readonly sql: Sql,
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

    const where: string[] = ['m.org_id = $1', 'm.removed_at IS NULL'];
    const params: unknown[] = [actor.orgId];
    if (type) {
      params.push(type);
      where.push(`m.type = $${params.length}`);
    }
    if (projectId !== undefined) {
      if (!isUuid(projectId)) throw Errors.notFound('Project not found');
      await this.access.assertProjectRead(actor, projectId);
      params.push(projectId);
      where.push(`(m.role <> 'guest' OR EXISTS (SELECT 1 FROM project_members pm WHERE pm.org_id = m.org_id AND pm.member_id = m.id AND pm.project_id = $${params.length}))`);
    } else if (directory || !actor.isOwnerOrAdmin) {
      where.push(`m.role <> 'guest'`);
    }
    if (q) {
      params.push(`%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
      where.push(`m.display_name ILIKE $${params.length}`);
    }
    const whereSql = where.join(' AND ');

    if (!directory) {
      const rows = await this.db.query(
        `SELECT ${MEMBER_COLUMNS} FROM members m LEFT JOIN users u ON u.id = m.user_id WHERE ${whereSql} ORDER BY lower(m.display_name), m.id`,
        params,
      );
      return { members: rows.map((r: never) => toMemberResponse(r, actor.isOwnerOrAdmin)), total: rows.length };
    }

    const n = params.length;
    const rows = await this.sql.prepared<DirectoryItem & { total: number }>(
      `SELECT m.id, m.display_name, m.type, m.role, m.avatar_url, count(*) OVER()::int AS total
         FROM members m WHERE ${whereSql}
        ORDER BY lower(m.display_name), m.id LIMIT $${n + 1} OFFSET $${n + 2}`,
      [...params, page.limit, page.offset],
    );
    let total = rows[0]?.total;
    if (total === undefined) {
      total = page.offset === 0 ? 0 : (await this.db.query(`SELECT count(*)::int AS n FROM members m WHERE ${whereSql}`, params))[0].n;
    }
    const items: DirectoryItem[] = rows.map((r) => ({ id: r.id, display_name: r.display_name, type: r.type, role: r.role, avatar_url: r.avatar_url ?? null }));
    return envelope('members', items, total as number, page);
  }
}
