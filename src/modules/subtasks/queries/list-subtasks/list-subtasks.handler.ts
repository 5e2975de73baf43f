import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { loadIssueRecords } from '../../../issue-list/issue-record';
import type { SubtaskListResponse } from '../../subtasks.response';
import { ListSubtasksQuery } from './list-subtasks.query';

/** Direct children of a readable issue that the caller can read, oldest first. */
@QueryHandler(ListSubtasksQuery)
export class ListSubtasksHandler implements IQueryHandler<ListSubtasksQuery, SubtaskListResponse> {
  constructor(
    private readonly db: DataSource,
    private readonly access: AccessPolicyService,
  ) {}

  async execute({ actor, parentId }: ListSubtasksQuery): Promise<SubtaskListResponse> {
    const parent = await this.access.assertIssueRead(actor, parentId);
    const readable = await this.access.readableProjects(actor);
    const rows: Array<{ id: string }> =
      readable === 'all'
        ? await this.db.query('SELECT id FROM issues WHERE org_id = $1 AND parent_id = $2 ORDER BY created_at, id LIMIT 500', [actor.orgId, parent.id])
        : await this.db.query('SELECT id FROM issues WHERE org_id = $1 AND parent_id = $2 AND project_id = ANY($3::uuid[]) ORDER BY created_at, id LIMIT 500', [
            actor.orgId,
            parent.id,
            readable,
          ]);
    const subtasks = await loadIssueRecords(this.db.manager, actor.orgId, rows.map((r) => r.id));
    return { subtasks, total: subtasks.length };
  }
}
