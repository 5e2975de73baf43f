import { randomUUID } from 'node:crypto';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { Errors } from '../../../../common/errors/domain-error';
import { findColumns, issueCountsByStatus, lockProject } from '../../board.reader';
import { BoardColumnEntity } from '../../entities/board-column.entity';
import { SYSTEM_STATUS_CANCELLED } from '../../project.rules';
import { toBoardColumnResponse } from '../../projects.mapper';
import type { BoardColumnEnvelope } from '../../projects.response';
import { CreateBoardColumnCommand } from './create-board-column.command';

/** Appends a column to the board and to the project's Default board view. Needs project edit. */
@CommandHandler(CreateBoardColumnCommand)
export class CreateBoardColumnHandler implements ICommandHandler<CreateBoardColumnCommand> {
  constructor(
    private readonly db: DataSource,
    private readonly access: AccessPolicyService,
  ) {}

  async execute({ actor, projectId, dto }: CreateBoardColumnCommand): Promise<BoardColumnEnvelope> {
    await this.access.assertProjectWrite(actor, projectId, 'edit');
    if (dto.key === SYSTEM_STATUS_CANCELLED) throw Errors.validation('key "cancelled" is the system status and cannot be a column');
    return this.db.transaction(async (m) => {
      await lockProject(m, actor.orgId, projectId);
      const columns = await findColumns(m, actor.orgId, projectId);
      if (columns.some((c) => c.key === dto.key)) throw Errors.conflict(`A column with key ${dto.key} already exists in this project`, 'column_key_taken');
      const now = new Date();
      const column = m.create(BoardColumnEntity, {
        orgId: actor.orgId,
        id: randomUUID(),
        projectId,
        key: dto.key,
        label: dto.label,
        description: dto.description ?? null,
        color: dto.color ?? null,
        position: columns.length ? Math.max(...columns.map((c) => c.position)) + 1 : 0,
        createdAt: now,
        updatedAt: now,
      });
      await m.insert(BoardColumnEntity, column);
      await m.query(
        `INSERT INTO board_view_columns (org_id, view_id, column_id, position)
         SELECT v.org_id, v.id, $3, COALESCE((SELECT max(vc.position) + 1 FROM board_view_columns vc WHERE vc.org_id = v.org_id AND vc.view_id = v.id), 0)
           FROM board_views v WHERE v.org_id = $1 AND v.project_id = $2 AND v.is_default`,
        [actor.orgId, projectId, column.id],
      );
      const counts = await issueCountsByStatus(m, actor.orgId, projectId);
      return { column: toBoardColumnResponse(column, counts.get(column.key) ?? 0) };
    });
  }
}
