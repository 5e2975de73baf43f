import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { Errors } from '../../../../common/errors/domain-error';
import { findColumns, lockProject, readBoardColumns } from '../../board.reader';
import type { BoardColumnListResponse } from '../../projects.response';
import { ReorderBoardColumnsCommand } from './reorder-board-columns.command';

/**
 * Reorders the whole board atomically. The request must name the complete current column set
 * once each with unique non-negative positions; they are normalized to 0..n-1 in that order. The
 * Default board view follows the new order.
 */
@CommandHandler(ReorderBoardColumnsCommand)
export class ReorderBoardColumnsHandler implements ICommandHandler<ReorderBoardColumnsCommand> {
  constructor(
    private readonly db: DataSource,
    private readonly access: AccessPolicyService,
  ) {}

  async execute({ actor, projectId, dto }: ReorderBoardColumnsCommand): Promise<BoardColumnListResponse> {
    await this.access.assertProjectWrite(actor, projectId, 'edit');
    const items = dto.columns.map((c) => ({ id: c.id.toLowerCase(), position: c.position }));
    if (new Set(items.map((c) => c.id)).size !== items.length) throw Errors.validation('columns: each column may appear only once');
    if (new Set(items.map((c) => c.position)).size !== items.length) throw Errors.validation('columns: positions must be unique');
    const { orgId } = actor;
    return this.db.transaction(async (m) => {
      await lockProject(m, orgId, projectId);
      const current = await findColumns(m, orgId, projectId);
      const currentIds = new Set(current.map((c) => c.id));
      const missing = current.filter((c) => !items.some((i) => i.id === c.id)).map((c) => c.id);
      const foreign = items.filter((i) => !currentIds.has(i.id)).map((i) => i.id);
      if (missing.length || foreign.length) {
        throw Errors.validation('columns must list the complete current set of this project’s columns, each exactly once', {
          missing_column_ids: missing,
          unknown_column_ids: foreign,
        });
      }
      const ordered = [...items].sort((a, b) => a.position - b.position).map((i) => i.id);
      // One statement; the unique position constraint is deferred to commit.
      await m.query(
        `UPDATE board_columns c SET position = o.ord - 1, updated_at = now()
           FROM unnest($3::uuid[]) WITH ORDINALITY AS o(id, ord)
          WHERE c.org_id = $1 AND c.project_id = $2 AND c.id = o.id AND c.position <> o.ord - 1`,
        [orgId, projectId, ordered],
      );
      await m.query(
        `UPDATE board_view_columns vc SET position = c.position
           FROM board_columns c, board_views v
          WHERE vc.org_id = $1 AND c.org_id = $1 AND v.org_id = $1
            AND v.project_id = $2 AND v.is_default AND vc.view_id = v.id AND c.id = vc.column_id`,
        [orgId, projectId],
      );
      return readBoardColumns(m, orgId, projectId);
    });
  }
}
