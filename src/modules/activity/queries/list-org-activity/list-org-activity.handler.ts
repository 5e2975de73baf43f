import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { parsePage } from '../../../../common/http/list';
import { PendingActivity } from '../../activity-recorder.handler';
import { ActivityRedaction } from '../../activity-redaction.service';
import { ACTIVITY_COLUMNS, ACTOR_JOIN, type ActivityRow, toActivityResponse } from '../../activity.mapper';
import { parseActivityFilter } from '../../activity.paging';
import type { OrgActivityResponse } from '../../activity.response';
import { ListOrgActivityQuery } from './list-org-activity.query';

/**
 * The organization's task activity, newest first, limited to issues the caller can read now
 * (projectless issues for non-guests). `filter=by_me`: the caller acted; `filter=mine`: issues
 * assigned to (or created by) the caller.
 */
@QueryHandler(ListOrgActivityQuery)
export class ListOrgActivityHandler implements IQueryHandler<ListOrgActivityQuery> {
  constructor(
    private readonly db: DataSource,
    private readonly access: AccessPolicyService,
    private readonly pending: PendingActivity,
    private readonly redaction: ActivityRedaction,
  ) {}

  async execute({ actor, query }: ListOrgActivityQuery): Promise<OrgActivityResponse> {
    const page = parsePage(query);
    const filter = parseActivityFilter(query);
    const readable = await this.access.readableProjects(actor);
    const projectless = (await this.access.issueLevel(actor, null)) !== null;
    const params: unknown[] = [actor.orgId, readable === 'all', readable === 'all' ? [] : readable, projectless];
    const where = [
      'e.org_id = $1',
      '((i.project_id IS NULL AND $4::boolean) OR (i.project_id IS NOT NULL AND ($2::boolean OR i.project_id = ANY($3::uuid[]))))',
    ];
    if (filter === 'by_me') {
      params.push(actor.memberId);
      where.push(`e.actor_member_id = $${params.length}`);
    } else if (filter === 'mine') {
      params.push(actor.memberId);
      const me = `$${params.length}`;
      where.push(`(i.assignee_id = ${me} OR i.created_by_member_id = ${me}
        OR EXISTS (SELECT 1 FROM issue_assignees ia WHERE ia.org_id = i.org_id AND ia.issue_id = i.id AND ia.member_id = ${me}))`);
    }
    params.push(page.limit + 1, page.offset);
    await this.pending.settle();
    const rows: ActivityRow[] = await this.db.query(
      `SELECT ${ACTIVITY_COLUMNS} FROM activity_events e
         JOIN issues i ON i.org_id = e.org_id AND i.id = e.issue_id
         ${ACTOR_JOIN}
        WHERE ${where.join(' AND ')}
        ORDER BY e.created_at DESC, e.id DESC LIMIT $${params.length - 1} OFFSET $${params.length}`,
      params,
    );
    const hasMore = rows.length > page.limit;
    const shown = rows.slice(0, page.limit);
    await this.redaction.apply(actor, shown);
    return {
      data: shown.map(toActivityResponse) as never[],
      currentMemberId: actor.memberId,
      limit: page.limit,
      offset: page.offset,
      hasMore,
    };
  }
}
