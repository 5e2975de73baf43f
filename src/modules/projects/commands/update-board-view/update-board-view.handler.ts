import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { Errors } from '../../../../common/errors/domain-error';
import { foreignColumnIds, lockProject, readBoardView } from '../../board.reader';
import { BoardRepository } from '../../board.repository';
import type { BoardViewEnvelope } from '../../projects.response';
import { UpdateBoardViewCommand } from './update-board-view.command';
import { TxRunner } from '../../../../database/tx-runner';

/** Renames a view and/or replaces its columns (at least one of the two). Needs project edit. */
@CommandHandler(UpdateBoardViewCommand)
export class UpdateBoardViewHandler implements ICommandHandler<UpdateBoardViewCommand> {
  constructor(
    private readonly tx: TxRunner,
    private readonly access: AccessPolicyService,
    private readonly board: BoardRepository,
  ) {}

  async execute({ actor, projectId, viewId, dto }: UpdateBoardViewCommand): Promise<BoardViewEnvelope> {
    await this.access.assertProjectWrite(actor, projectId, 'edit');
    const columnIds = dto.columnIds?.map((id) => id.toLowerCase());
    const { orgId } = actor;
    return this.tx.run(async (m) => {
      await lockProject(this.board, m, orgId, projectId);
      const view = await this.board.view(orgId, projectId, viewId, m);
      if (!view) throw Errors.notFound('Board view not found');
      if (dto.name === undefined && columnIds === undefined) throw Errors.validation('Send name and/or columnIds');
      if (columnIds) {
        const foreign = await foreignColumnIds(this.board, m, orgId, projectId, columnIds);
        if (foreign.length) throw Errors.validation('columnIds must be columns of this project', { unknown_column_ids: foreign });
        await this.board.setViewColumns(orgId, viewId, columnIds, m);
      }
      await this.board.updateView(orgId, viewId, dto.name, new Date(), m);
      return { view: await readBoardView(this.board, m, orgId, projectId, viewId) };
    });
  }
}
