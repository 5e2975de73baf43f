import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { Errors } from '../../../../common/errors/domain-error';
import { lockProject, readBoardColumns } from '../../board.reader';
import { BoardRepository } from '../../board.repository';
import type { BoardColumnListResponse } from '../../projects.response';
import { ReorderBoardColumnsCommand } from './reorder-board-columns.command';
import { TxRunner } from '../../../../database/tx-runner';

/**
 * Reorders the whole board atomically. The request must name the complete current column set
 * once each with unique non-negative positions; they are normalized to 0..n-1 in that order. The
 * Default board view follows the new order.
 */
@CommandHandler(ReorderBoardColumnsCommand)
export class ReorderBoardColumnsHandler implements ICommandHandler<ReorderBoardColumnsCommand> {
  constructor(
    private readonly tx: TxRunner,
    private readonly access: AccessPolicyService,
    private readonly board: BoardRepository,
  ) {}

  async execute({ actor, projectId, dto }: ReorderBoardColumnsCommand): Promise<BoardColumnListResponse> {
    await this.access.assertProjectWrite(actor, projectId, 'edit');
    const items = dto.columns.map((c) => ({ id: c.id.toLowerCase(), position: c.position }));
    if (new Set(items.map((c) => c.id)).size !== items.length) throw Errors.validation('columns: each column may appear only once');
    if (new Set(items.map((c) => c.position)).size !== items.length) throw Errors.validation('columns: positions must be unique');
    const { orgId } = actor;
    return this.tx.run(async (m) => {
      await lockProject(this.board, m, orgId, projectId);
      const current = await this.board.columns(orgId, projectId, m);
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
      await this.board.reorderColumns(orgId, projectId, ordered, m);
      await this.board.syncDefaultViewPositions(orgId, projectId, m);
      return readBoardColumns(this.board, m, orgId, projectId);
    });
  }
}
