import { randomUUID } from 'node:crypto';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { Errors } from '../../../../common/errors/domain-error';
import { boardColumnResponses, lockProject } from '../../board.reader';
import { BoardRepository } from '../../board.repository';
import type { BoardColumnEntity } from '../../entities/board-column.entity';
import { SYSTEM_STATUS_CANCELLED } from '../../project.rules';
import type { BoardColumnEnvelope } from '../../projects.response';
import { CreateBoardColumnCommand } from './create-board-column.command';
import { TxRunner } from '../../../../database/tx-runner';

/** Appends a column to the board and to the project's Default board view. Needs project edit. */
@CommandHandler(CreateBoardColumnCommand)
export class CreateBoardColumnHandler implements ICommandHandler<CreateBoardColumnCommand> {
  constructor(
    private readonly tx: TxRunner,
    private readonly access: AccessPolicyService,
    private readonly board: BoardRepository,
  ) {}

  async execute({ actor, projectId, dto }: CreateBoardColumnCommand): Promise<BoardColumnEnvelope> {
    await this.access.assertProjectWrite(actor, projectId, 'edit');
    if (dto.key === SYSTEM_STATUS_CANCELLED) throw Errors.validation('key "cancelled" is the system status and cannot be a column');
    return this.tx.run(async (m) => {
      await lockProject(this.board, m, actor.orgId, projectId);
      const columns = await this.board.columns(actor.orgId, projectId, m);
      if (columns.some((c) => c.key === dto.key)) throw Errors.conflict(`A column with key ${dto.key} already exists in this project`, 'column_key_taken');
      const now = new Date();
      const column: BoardColumnEntity = {
        orgId: actor.orgId,
        id: randomUUID(),
        projectId,
        key: dto.key,
        label: dto.label,
        description: dto.description ?? null,
        color: dto.color ?? null,
        position: columns.length ? Math.max(...columns.map((c) => c.position)) + 1 : 0,
        recommendationRole: dto.recommendationRole ?? null,
        createdAt: now,
        updatedAt: now,
      };
      await this.board.insertColumns([column], m);
      await this.board.appendToDefaultViews(actor.orgId, projectId, column.id, m);
      const [response] = await boardColumnResponses(this.board, m, actor.orgId, projectId, [column]);
      return { column: response };
    });
  }
}
