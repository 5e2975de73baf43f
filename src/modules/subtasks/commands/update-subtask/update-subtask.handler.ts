import { CommandBus, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { UpdateIssueCommand, type UpdateIssueDto } from '../../../issues/issues.public';
import { IssueListRepository } from '../../../issue-list/issue-list.repository';
import { toIssueRecordsInOrder } from '../../../issue-list/issue-record';
import { assertChildOf } from '../../subtask-access';
import { SubtasksRepository } from '../../subtasks.repository';
import type { SubtaskEnvelope } from '../../subtasks.response';
import { UpdateSubtaskCommand } from './update-subtask.command';

const FIELDS = ['title', 'description', 'status', 'priority', 'assigneeId', 'assigneeIds', 'startDate', 'dueDate'];

/**
 * Parent readable (404), the subtask a child of it (404), then the issue update itself (edit on
 * the child: 403 view-only; same validation, activity and completion recurrence as PATCH /issues).
 */
@CommandHandler(UpdateSubtaskCommand)
export class UpdateSubtaskHandler implements ICommandHandler<UpdateSubtaskCommand, SubtaskEnvelope> {
  constructor(
    private readonly subtasks: SubtasksRepository,
    private readonly records: IssueListRepository,
    private readonly access: AccessPolicyService,
    private readonly commands: CommandBus,
  ) {}

  async execute({ actor, parentId, subtaskId, dto }: UpdateSubtaskCommand): Promise<SubtaskEnvelope> {
    const parent = await this.access.assertIssueRead(actor, parentId);
    await assertChildOf(this.subtasks, actor.orgId, parent.id, subtaskId);
    await this.access.assertIssueWrite(actor, subtaskId, 'edit');
    const patch: Record<string, unknown> = {};
    for (const k of FIELDS) if ((dto as Record<string, unknown>)[k] !== undefined) patch[k] = (dto as Record<string, unknown>)[k];
    await this.commands.execute(new UpdateIssueCommand(actor, subtaskId, patch as UpdateIssueDto));
    const [record] = toIssueRecordsInOrder([subtaskId], await this.records.records(actor.orgId, [subtaskId]));
    return { subtask: record, issue: record };
  }
}
