import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { AccessPolicyService, atLeast } from '../../../../common/access/access-policy.service';
import type { Actor } from '../../../../common/auth/principal';
import { Errors } from '../../../../common/errors/domain-error';
import { isUuid } from '../../../../common/http/validation';
import { DomainEvents, IssueActivityEvent, snapshotOf } from '../../../../common/events/domain-events';
import { parseIssueFields } from '../../../issues/issue-input';
import { isTerminal, IssueWriter } from '../../../issues/issue-writer.service';
import { IssueReader } from '../../../issues/issue.reader';
import { IssueListRepository } from '../../../issue-list/issue-list.repository';
import { toIssueRecordsInOrder } from '../../../issue-list/issue-record';
import type { IssueRecordResponse } from '../../../issue-list/issue-list.response';
import { assertDepth } from '../../subtask-tree';
import { SubtasksRepository } from '../../subtasks.repository';
import { CreateSubtaskCommand } from './create-subtask.command';
import { TxRunner } from '../../../../database/tx-runner';

export interface CreateSubtaskResult {
  created: boolean;
  record: IssueRecordResponse;
}

/**
 * New child: edit on the parent (404 unreadable, 403 view-only), the same create rules as POST
 * /issues (plan, numbering, statuses of the parent's project, default backlog), in the parent's
 * project. Attach (`issueId`): edit on both, same project, no cycles, depth limit.
 */
@CommandHandler(CreateSubtaskCommand)
export class CreateSubtaskHandler implements ICommandHandler<CreateSubtaskCommand, CreateSubtaskResult> {
  constructor(
    private readonly tx: TxRunner,
    private readonly access: AccessPolicyService,
    private readonly writer: IssueWriter,
    private readonly reader: IssueReader,
    private readonly events: DomainEvents,
    private readonly subtasks: SubtasksRepository,
    private readonly records: IssueListRepository,
  ) {}

  async execute({ actor, parentId, dto }: CreateSubtaskCommand): Promise<CreateSubtaskResult> {
    const parent = await this.access.assertIssueWrite(actor, parentId, 'edit');
    const existing = dto.issueId;
    if (existing !== undefined) return this.attach(actor, parent, existing);

    const fields = parseIssueFields(dto as Record<string, unknown>, 'create');
    if (fields.projectId !== undefined && fields.projectId !== parent.projectId) {
      throw Errors.validation("A subtask is created in its parent's project; omit projectId");
    }
    const record = await this.tx.run(async (m) => {
      const locked = await this.subtasks.lockSharedWithDepth(actor.orgId, parent.id, m);
      if (!locked) throw Errors.notFound('Issue not found');
      if (locked.project_id !== parent.projectId) {
        // moved by someone else since the access check: decide again on the locked row
        const level = await this.access.issueLevel(actor, locked.project_id, m);
        if (!level) throw Errors.notFound('Issue not found');
        if (!atLeast(level, 'edit')) throw Errors.forbidden("This needs edit access to the issue's project");
      }
      assertDepth(locked.depth, 1);
      const projectId = locked.project_id;
      const targets = await this.writer.openTargets(m, actor, [projectId], isTerminal(fields.status ?? 'backlog') ? 0 : 1);
      const created = await this.writer.create(m, actor, { ...fields, projectId }, targets, { parentId: parent.id });
      const child = created.issue;
      const snap = snapshotOf(actor);
      await this.events.stage(
        m,
        new IssueActivityEvent(actor.orgId, child.id, child.projectId, actor.memberId, snap, 'issue.created', {
          number: child.number,
          title: child.title,
          parent_id: parent.id,
        }),
        new IssueActivityEvent(actor.orgId, parent.id, projectId, actor.memberId, snap, 'subtask.created', {
          subtask_id: child.id,
          number: child.number,
          title: child.title,
        }),
      );
      return this.reader.fromKnown(child, this.writer.extrasOf(created, targets));
    });
    return { created: true, record };
  }

  private async attach(actor: Actor, parent: { id: string; projectId: string | null }, raw: unknown): Promise<CreateSubtaskResult> {
    if (!isUuid(raw)) throw Errors.validation('issueId must be a UUID');
    const child = await this.access.assertIssueWrite(actor, raw.toLowerCase(), 'edit');
    if (child.id === parent.id) throw Errors.validation('An issue cannot be its own subtask');
    if (child.projectId !== parent.projectId) throw Errors.validation('A subtask must be in the same project as its parent');
    await this.tx.run(async (m) => {
      const locked = await this.subtasks.lockAll(actor.orgId, [parent.id, child.id], m);
      if (locked < 2) throw Errors.notFound('Issue not found');
      if ((await this.subtasks.parentOf(actor.orgId, child.id, m)) === parent.id) return false;
      const up = await this.subtasks.ancestry(actor.orgId, parent.id, child.id, m);
      if (up.hasAncestor) throw Errors.validation('This would make a cycle: the issue is an ancestor of the parent', { code_detail: 'subtask_cycle' });
      assertDepth(up.depth, await this.subtasks.subtreeHeight(actor.orgId, child.id, m));
      await this.subtasks.setParent(actor.orgId, child.id, parent.id, m);
      await this.events.stage(
        m,
        new IssueActivityEvent(actor.orgId, child.id, child.projectId, actor.memberId, snapshotOf(actor), 'issue.updated', { changed_fields: ['parent_id'] }),
      );
      await this.events.stage(
        m,
        new IssueActivityEvent(actor.orgId, parent.id, parent.projectId, actor.memberId, snapshotOf(actor), 'subtask.added', {
          subtask_id: child.id,
          number: child.number,
        }),
      );
      return true;
    });
    const [record] = toIssueRecordsInOrder([child.id], await this.records.records(actor.orgId, [child.id]));
    return { created: false, record };
  }
}
