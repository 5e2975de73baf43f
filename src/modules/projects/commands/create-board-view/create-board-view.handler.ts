import { randomUUID } from 'node:crypto';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { Errors } from '../../../../common/errors/domain-error';
import { foreignColumnIds, lockProject, readBoardView } from '../../board.reader';
import { BoardRepository } from '../../board.repository';
import type { BoardViewEntity } from '../../entities/board-view.entity';
import type { BoardViewEnvelope } from '../../projects.response';
import { CreateBoardViewCommand } from './create-board-view.command';
import { TxRunner } from '../../../../database/tx-runner';

/** A named selection and order of the project's columns. Needs project edit. */
@CommandHandler(CreateBoardViewCommand)
export class CreateBoardViewHandler implements ICommandHandler<CreateBoardViewCommand> {
  constructor(
    private readonly tx: TxRunner,
    private readonly access: AccessPolicyService,
    private readonly board: BoardRepository,
  ) {}

  async execute({ actor, projectId, dto }: CreateBoardViewCommand): Promise<BoardViewEnvelope> {
    await this.access.assertProjectWrite(actor, projectId, 'edit');
    const columnIds = dto.columnIds?.map((id) => id.toLowerCase());
    if (!columnIds) throw Errors.validation('columnIds is required: a non-empty array of column ids of this project');
    const { orgId } = actor;
    return this.tx.run(async (m) => {
      await lockProject(this.board, m, orgId, projectId);
      const foreign = await foreignColumnIds(this.board, m, orgId, projectId, columnIds);
      if (foreign.length) throw Errors.validation('columnIds must be columns of this project', { unknown_column_ids: foreign });
      const now = new Date();
      const view: BoardViewEntity = { orgId, id: randomUUID(), projectId, name: dto.name, isDefault: false, createdAt: now, updatedAt: now };
      await this.board.insertView(view, m);
      await this.board.setViewColumns(orgId, view.id, columnIds, m);
      return { view: await readBoardView(this.board, m, orgId, projectId, view.id) };
    });
  }
}
