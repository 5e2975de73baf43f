import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { IssueListRepository } from '../../../issue-list/issue-list.repository';
import { toIssueRecordsInOrder } from '../../../issue-list/issue-record';
import { SubtasksRepository } from '../../subtasks.repository';
import type { SubtaskListResponse } from '../../subtasks.response';
import { ListSubtasksQuery } from './list-subtasks.query';

/** Direct children of a readable issue that the caller can read, oldest first. */
@QueryHandler(ListSubtasksQuery)
export class ListSubtasksHandler implements IQueryHandler<ListSubtasksQuery, SubtaskListResponse> {
  constructor(
    private readonly subtasks: SubtasksRepository,
    private readonly records: IssueListRepository,
    private readonly access: AccessPolicyService,
  ) {}

  async execute({ actor, parentId }: ListSubtasksQuery): Promise<SubtaskListResponse> {
    const parent = await this.access.assertIssueRead(actor, parentId);
    const readable = await this.access.readableProjects(actor);
    const ids = await this.subtasks.childIds(actor.orgId, parent.id, readable);
    const subtasks = toIssueRecordsInOrder(ids, await this.records.records(actor.orgId, ids));
    return { subtasks, total: subtasks.length };
  }
}
