import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { Errors } from '../../../../common/errors/domain-error';
import { findColumn } from '../../board.reader';
import { BoardRepository } from '../../board.repository';
import { toBoardColumnResponse } from '../../projects.mapper';
import type { BoardColumnEnvelope } from '../../projects.response';
import { UpdateBoardColumnCommand } from './update-board-column.command';

/** Edits label, description and color of a column. Needs project edit. */
@CommandHandler(UpdateBoardColumnCommand)
export class UpdateBoardColumnHandler implements ICommandHandler<UpdateBoardColumnCommand> {
  constructor(
    private readonly db: DataSource,
    private readonly access: AccessPolicyService,
    private readonly board: BoardRepository,
  ) {}

  async execute({ actor, projectId, columnId, dto }: UpdateBoardColumnCommand): Promise<BoardColumnEnvelope> {
    await this.access.assertProjectWrite(actor, projectId, 'edit');
    const patch: { label?: string; description?: string | null; color?: string | null } = {};
    if (dto.label !== undefined) patch.label = dto.label;
    if (dto.description !== undefined) patch.description = dto.description;
    if (dto.color !== undefined) patch.color = dto.color;
    return this.db.transaction(async (m) => {
      await findColumn(this.board, m, actor.orgId, projectId, columnId);
      if (!Object.keys(patch).length) throw Errors.validation('Nothing to update: send label, description or color');
      await this.board.updateColumn(actor.orgId, projectId, columnId, patch, new Date(), m);
      const column = await findColumn(this.board, m, actor.orgId, projectId, columnId);
      const counts = await this.board.issueCountsByStatus(actor.orgId, projectId, m);
      return { column: toBoardColumnResponse(column, counts.get(column.key) ?? 0) };
    });
  }
}
