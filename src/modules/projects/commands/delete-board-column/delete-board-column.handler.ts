import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { Errors } from '../../../../common/errors/domain-error';
import { FormulaKpiRecalculator } from '../../../strategy/formula/formula-kpi-recalculator';
import { lockProject } from '../../board.reader';
import { BoardRepository } from '../../board.repository';
import type { BoardColumnEntity } from '../../entities/board-column.entity';
import type { DeleteBoardColumnResponse } from '../../projects.response';
import { queryUuid } from '../../projects.validation';
import { DeleteBoardColumnCommand } from './delete-board-column.command';
import { TxRunner } from '../../../../database/tx-runner';

/**
 * Deletes a column. Issues in it move to `reassignTo` (required when there are any) in the same
 * transaction; the last column cannot go; the remaining positions are compacted to 0..n-1.
 * Moved issues change status, so formula KPIs of the organization are recalculated in the same
 * transaction (the bulk move bypasses the per-issue events).
 */
@CommandHandler(DeleteBoardColumnCommand)
export class DeleteBoardColumnHandler implements ICommandHandler<DeleteBoardColumnCommand> {
  constructor(
    private readonly tx: TxRunner,
    private readonly access: AccessPolicyService,
    private readonly formula: FormulaKpiRecalculator,
    private readonly board: BoardRepository,
  ) {}

  async execute({ actor, projectId, columnId, query }: DeleteBoardColumnCommand): Promise<DeleteBoardColumnResponse> {
    await this.access.assertProjectWrite(actor, projectId, 'edit');
    const reassignTo = queryUuid(query, ['reassignTo', 'reassign_to']);
    const { orgId } = actor;
    return this.tx.run(async (m) => {
      await lockProject(this.board, m, orgId, projectId);
      const columns = await this.board.columns(orgId, projectId, m);
      const column = columns.find((c) => c.id === columnId);
      if (!column) throw Errors.notFound('Board column not found');
      if (columns.length === 1) throw Errors.conflict('The last column of a project cannot be deleted', 'last_column');
      let target: BoardColumnEntity | undefined;
      if (reassignTo !== undefined) {
        if (reassignTo === columnId) throw Errors.validation('reassignTo must be another column than the one being deleted');
        target = columns.find((c) => c.id === reassignTo);
        if (!target) throw Errors.validation('reassignTo must be a column of this project');
      }
      const issueCount = await this.board.issueCountInStatus(orgId, projectId, column.key, m);
      if (issueCount > 0 && !target) {
        throw Errors.validation(`${issueCount} issue(s) use this column; pass ?reassignTo=<columnId> to move them to another column`, {
          issue_count: issueCount,
        });
      }
      let moved = 0;
      if (issueCount > 0 && target) {
        moved = await this.board.moveIssues(orgId, projectId, column.key, target.key, m);
        if (moved > 0) await this.formula.recalculateForOrgIn(m, orgId);
      }
      await this.board.deleteColumn(orgId, projectId, columnId, m);
      await this.board.compactColumns(orgId, projectId, m);
      return { success: true, reassigned_issue_count: moved };
    });
  }
}
