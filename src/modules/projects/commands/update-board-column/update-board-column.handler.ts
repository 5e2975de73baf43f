import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { Errors } from '../../../../common/errors/domain-error';
import { boardColumnResponses, findColumn } from '../../board.reader';
import { BoardRepository } from '../../board.repository';
import type { BoardColumnEnvelope } from '../../projects.response';
import { UpdateBoardColumnCommand } from './update-board-column.command';
import { TxRunner } from '../../../../database/tx-runner';

/** Edits label, description, color and recommendation role of a column. Needs project edit. */
@CommandHandler(UpdateBoardColumnCommand)
export class UpdateBoardColumnHandler implements ICommandHandler<UpdateBoardColumnCommand> {
  constructor(
    private readonly tx: TxRunner,
    private readonly access: AccessPolicyService,
    private readonly board: BoardRepository,
  ) {}

  async execute({ actor, projectId, columnId, dto }: UpdateBoardColumnCommand): Promise<BoardColumnEnvelope> {
    await this.access.assertProjectWrite(actor, projectId, 'edit');
    const patch: Parameters<BoardRepository['updateColumn']>[3] = {};
    if (dto.label !== undefined) patch.label = dto.label;
    if (dto.description !== undefined) patch.description = dto.description;
    if (dto.color !== undefined) patch.color = dto.color;
    if (dto.recommendationRole !== undefined) patch.recommendationRole = dto.recommendationRole;
    return this.tx.run(async (m) => {
      await findColumn(this.board, m, actor.orgId, projectId, columnId);
      if (!Object.keys(patch).length) throw Errors.validation('Nothing to update: send label, description, color or recommendationRole');
      await this.board.updateColumn(actor.orgId, projectId, columnId, patch, new Date(), m);
      const column = await findColumn(this.board, m, actor.orgId, projectId, columnId);
      const [response] = await boardColumnResponses(this.board, m, actor.orgId, projectId, [column]);
      return { column: response };
    });
  }
}
