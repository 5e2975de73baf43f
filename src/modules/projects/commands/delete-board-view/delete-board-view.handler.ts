import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { Errors } from '../../../../common/errors/domain-error';
import { BoardRepository } from '../../board.repository';
import type { ProjectsSuccessResponse } from '../../projects.response';
import { DeleteBoardViewCommand } from './delete-board-view.command';

/** Deletes a board view; the project's default view stays. Needs project edit. */
@CommandHandler(DeleteBoardViewCommand)
export class DeleteBoardViewHandler implements ICommandHandler<DeleteBoardViewCommand> {
  constructor(
    private readonly board: BoardRepository,
    private readonly access: AccessPolicyService,
  ) {}

  async execute({ actor, projectId, viewId }: DeleteBoardViewCommand): Promise<ProjectsSuccessResponse> {
    await this.access.assertProjectWrite(actor, projectId, 'edit');
    const { orgId } = actor;
    const view = await this.board.view(orgId, projectId, viewId);
    if (!view) throw Errors.notFound('Board view not found');
    if (view.isDefault) throw Errors.conflict('The default board view cannot be deleted', 'default_view_protected');
    await this.board.deleteView(orgId, projectId, viewId);
    return { success: true };
  }
}
