import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DataSource, type EntityManager } from 'typeorm';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { Errors } from '../../../../common/errors/domain-error';
import { FormulaKpiRecalculator } from '../../../strategy/formula/formula-kpi-recalculator';
import { findColumns, lockProject } from '../../board.reader';
import { BoardColumnEntity } from '../../entities/board-column.entity';
import type { DeleteBoardColumnResponse } from '../../projects.response';
import { queryUuid } from '../../projects.validation';
import { DeleteBoardColumnCommand } from './delete-board-column.command';

/**
 * Deletes a column. Issues in it move to `reassignTo` (required when there are any) in the same
 * transaction; the last column cannot go; the remaining positions are compacted to 0..n-1.
 * Moved issues change status, so formula KPIs of the organization are recalculated in the same
 * transaction (the bulk move bypasses the per-issue events).
 */
@CommandHandler(DeleteBoardColumnCommand)
export class DeleteBoardColumnHandler implements ICommandHandler<DeleteBoardColumnCommand> {
  constructor(
    private readonly db: DataSource,
    private readonly access: AccessPolicyService,
    private readonly formula: FormulaKpiRecalculator,
  ) {}

  async execute({ actor, projectId, columnId, query }: DeleteBoardColumnCommand): Promise<DeleteBoardColumnResponse> {
    await this.access.assertProjectWrite(actor, projectId, 'edit');
    const reassignTo = queryUuid(query, ['reassignTo', 'reassign_to']);
    const { orgId } = actor;
    return this.db.transaction(async (m) => {
      await lockProject(m, orgId, projectId);
      const columns = await findColumns(m, orgId, projectId);
      const column = columns.find((c) => c.id === columnId);
      if (!column) throw Errors.notFound('Board column not found');
      if (columns.length === 1) throw Errors.conflict('The last column of a project cannot be deleted', 'last_column');
      let target: BoardColumnEntity | undefined;
      if (reassignTo !== undefined) {
        if (reassignTo === columnId) throw Errors.validation('reassignTo must be another column than the one being deleted');
        target = columns.find((c) => c.id === reassignTo);
        if (!target) throw Errors.validation('reassignTo must be a column of this project');
      }
      const inUse: Array<{ n: number }> = await m.query('SELECT count(*)::int AS n FROM issues WHERE org_id = $1 AND project_id = $2 AND status = $3', [
        orgId,
        projectId,
        column.key,
      ]);
      const issueCount = inUse[0]?.n ?? 0;
      if (issueCount > 0 && !target) {
        throw Errors.validation(`${issueCount} issue(s) use this column; pass ?reassignTo=<columnId> to move them to another column`, { issue_count: issueCount });
      }
      let moved = 0;
      if (issueCount > 0 && target) {
        // pg reports UPDATE results as [rows, rowCount].
        const [, count]: [unknown[], number] = await m.query(
          'UPDATE issues SET status = $4, updated_at = now() WHERE org_id = $1 AND project_id = $2 AND status = $3',
          [orgId, projectId, column.key, target.key],
        );
        moved = count;
        if (moved > 0) await this.formula.recalculateForOrgIn(m, orgId);
      }
      await m.delete(BoardColumnEntity, { orgId, projectId, id: columnId });
      await this.compact(m, orgId, projectId);
      return { success: true, reassigned_issue_count: moved };
    });
  }

  /** Positions of the remaining columns become 0..n-1 (the position constraint is checked at commit). */
  private async compact(m: EntityManager, orgId: string, projectId: string): Promise<void> {
    await m.query(
      `UPDATE board_columns c SET position = o.rn - 1
         FROM (SELECT id, row_number() OVER (ORDER BY position, id) AS rn FROM board_columns WHERE org_id = $1 AND project_id = $2) o
        WHERE c.org_id = $1 AND c.id = o.id AND c.position <> o.rn - 1`,
      [orgId, projectId],
    );
  }
}
