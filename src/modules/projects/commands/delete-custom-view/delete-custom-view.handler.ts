import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { Errors } from '../../../../common/errors/domain-error';
import { CustomViewsRepository } from '../../custom-views.repository';
import type { ProjectsSuccessResponse } from '../../projects.response';
import { DeleteCustomViewCommand } from './delete-custom-view.command';

/** Deletes a custom view; the three default views stay. Needs project edit. */
@CommandHandler(DeleteCustomViewCommand)
export class DeleteCustomViewHandler implements ICommandHandler<DeleteCustomViewCommand> {
  constructor(
    private readonly views: CustomViewsRepository,
    private readonly access: AccessPolicyService,
  ) {}

  async execute({ actor, projectId, viewId }: DeleteCustomViewCommand): Promise<ProjectsSuccessResponse> {
    await this.access.assertProjectWrite(actor, projectId, 'edit');
    const { orgId } = actor;
    const view = await this.views.find(orgId, projectId, viewId);
    if (!view) throw Errors.notFound('Custom view not found');
    if (view.isDefault) throw Errors.conflict('Default custom views cannot be deleted', 'default_view_protected');
    await this.views.delete(orgId, projectId, viewId);
    return { success: true };
  }
}
