import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { Errors } from '../../../../common/errors/domain-error';
import { DomainEvents, IssueActivityEvent, snapshotOf } from '../../../../common/events/domain-events';
import { IssueListRepository } from '../../../issue-list/issue-list.repository';
import { toIssueRecordsInOrder } from '../../../issue-list/issue-record';
import type { IssueRecordResponse } from '../../../issue-list/issue-list.response';
import { assertChildOf } from '../../subtask-access';
import { SubtasksRepository } from '../../subtasks.repository';
import { DetachSubtaskCommand } from './detach-subtask.command';
import { TxRunner } from '../../../../database/tx-runner';

/**
 * DELETE detaches: the child stays as a top-level issue (permanent deletion of issues is the
 * owner/admin-only DELETE /issues/{id}). Parent readable (404), child of it (404), edit on the
 * child (403 view-only).
 */
@CommandHandler(DetachSubtaskCommand)
export class DetachSubtaskHandler implements ICommandHandler<DetachSubtaskCommand, { success: true; subtask: IssueRecordResponse }> {
  constructor(
    private readonly subtasks: SubtasksRepository,
    private readonly records: IssueListRepository,
    private readonly access: AccessPolicyService,
    private readonly events: DomainEvents,
    private readonly tx: TxRunner,
  ) {}

  async execute({ actor, parentId, subtaskId }: DetachSubtaskCommand): Promise<{ success: true; subtask: IssueRecordResponse }> {
    const parent = await this.access.assertIssueRead(actor, parentId);
    await assertChildOf(this.subtasks, actor.orgId, parent.id, subtaskId);
    const child = await this.access.assertIssueWrite(actor, subtaskId, 'edit');
    await this.tx.run(async (m) => {
      if (!(await this.subtasks.detach(actor.orgId, child.id, parent.id, m))) throw Errors.notFound('Subtask not found');
      await this.events.stage(
        m,
        new IssueActivityEvent(actor.orgId, child.id, child.projectId, actor.memberId, snapshotOf(actor), 'issue.updated', { changed_fields: ['parent_id'] }),
      );
      await this.events.stage(
        m,
        new IssueActivityEvent(actor.orgId, parent.id, parent.projectId, actor.memberId, snapshotOf(actor), 'subtask.removed', {
          subtask_id: child.id,
          number: child.number,
        }),
      );
    });
    const [record] = toIssueRecordsInOrder([child.id], await this.records.records(actor.orgId, [child.id]));
    return { success: true, subtask: record };
  }
}
