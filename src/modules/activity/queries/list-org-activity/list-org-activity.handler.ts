import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { parsePage } from '../../../../common/http/list';
import { ActivityRedaction } from '../../activity-redaction.service';
import { toActivityResponse } from '../../activity.mapper';
import { parseActivityFilter } from '../../activity.paging';
import { ActivityRepository } from '../../activity.repository';
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
    private readonly activity: ActivityRepository,
    private readonly access: AccessPolicyService,
    private readonly redaction: ActivityRedaction,
  ) {}

  async execute({ actor, query }: ListOrgActivityQuery): Promise<OrgActivityResponse> {
    const page = parsePage(query);
    const filter = parseActivityFilter(query);
    const readable = await this.access.readableProjects(actor);
    const projectless = (await this.access.issueLevel(actor, null)) !== null;
    const rows = await this.activity.orgPage({
      orgId: actor.orgId,
      allProjects: readable === 'all',
      projectIds: readable === 'all' ? [] : readable,
      projectless,
      byMemberId: filter === 'by_me' ? actor.memberId : undefined,
      mineMemberId: filter === 'mine' ? actor.memberId : undefined,
      limit: page.limit + 1,
      offset: page.offset,
    });
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
