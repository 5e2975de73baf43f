import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { Errors } from '../../../../common/errors/domain-error';
import { DomainEvents, IssueActivityEvent, snapshotOf } from '../../../../common/events/domain-events';
import { loadIssueRecords } from '../../../issue-list/issue-record';
import type { IssueRecordResponse } from '../../../issue-list/issue-list.response';
import { assertChildOf } from '../../subtask-access';
import { DetachSubtaskCommand } from './detach-subtask.command';

/**
 * DELETE detaches: the child stays as a top-level issue (permanent deletion of issues is the
 * owner/admin-only DELETE /issues/{id}). Parent readable (404), child of it (404), edit on the
 * child (403 view-only).
 */
@CommandHandler(DetachSubtaskCommand)
export class DetachSubtaskHandler implements ICommandHandler<DetachSubtaskCommand, { success: true; subtask: IssueRecordResponse }> {
  constructor(
    private readonly db: DataSource,
    private readonly access: AccessPolicyService,
    private readonly events: DomainEvents,
  ) {}

  async execute({ actor, parentId, subtaskId }: DetachSubtaskCommand): Promise<{ success: true; subtask: IssueRecordResponse }> {
    const parent = await this.access.assertIssueRead(actor, parentId);
    await assertChildOf(this.db.manager, actor.orgId, parent.id, subtaskId);
    const child = await this.access.assertIssueWrite(actor, subtaskId, 'edit');
    await this.db.transaction(async (m) => {
    const rows: unknown[] = await m.query(
      'UPDATE issues SET parent_id = NULL, updated_at = now() WHERE org_id = $1 AND id = $2 AND parent_id = $3 RETURNING id',
      [actor.orgId, child.id, parent.id],
    );
    const hit = Array.isArray(rows[0]) ? (rows[0] as unknown[]).length : rows.length;
    if (!hit) throw Errors.notFound('Subtask not found');
    await this.events.stage(m,
      new IssueActivityEvent(actor.orgId, child.id, child.projectId, actor.memberId, snapshotOf(actor), 'issue.updated', { changed_fields: ['parent_id'] }),
    );
    await this.events.stage(m,
      new IssueActivityEvent(actor.orgId, parent.id, parent.projectId, actor.memberId, snapshotOf(actor), 'subtask.removed', { subtask_id: child.id, number: child.number }),
    );
    });
    const [record] = await loadIssueRecords(this.db.manager, actor.orgId, [child.id]);
    return { success: true, subtask: record };
  }
}
