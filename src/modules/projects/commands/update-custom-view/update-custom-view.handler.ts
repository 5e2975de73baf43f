import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { Errors } from '../../../../common/errors/domain-error';
import { parseFilters, parseSort } from '../../custom-view.rules';
import { type CustomViewPatch, CustomViewsRepository } from '../../custom-views.repository';
import { toCustomViewResponse } from '../../projects.mapper';
import type { CustomViewEnvelope } from '../../projects.response';
import { UpdateCustomViewCommand } from './update-custom-view.command';

/** Edits a custom view (default views included); filters and sort are replaced whole. Needs project edit. */
@CommandHandler(UpdateCustomViewCommand)
export class UpdateCustomViewHandler implements ICommandHandler<UpdateCustomViewCommand> {
  constructor(
    private readonly views: CustomViewsRepository,
    private readonly access: AccessPolicyService,
  ) {}

  async execute({ actor, projectId, viewId, dto }: UpdateCustomViewCommand): Promise<CustomViewEnvelope> {
    await this.access.assertProjectWrite(actor, projectId, 'edit');
    const { orgId } = actor;
    if (!(await this.views.find(orgId, projectId, viewId))) throw Errors.notFound('Custom view not found');
    const patch: CustomViewPatch = {};
    if (dto.name !== undefined) patch.name = dto.name;
    if (dto.filters !== undefined) patch.filters = parseFilters(dto.filters) as Record<string, unknown>;
    if (dto.sort !== undefined) patch.sort = parseSort(dto.sort) as Record<string, unknown> | null;
    const displayMode = dto.display_mode;
    if (displayMode !== undefined) patch.displayMode = displayMode;
    if (dto.color !== undefined) patch.color = dto.color;
    if (dto.icon !== undefined) patch.icon = dto.icon;
    if (!Object.keys(patch).length) throw Errors.validation('Nothing to update: send name, filters, sort, display_mode, color or icon');
    await this.views.update(orgId, projectId, viewId, patch, new Date());
    const body = toCustomViewResponse((await this.views.find(orgId, projectId, viewId))!);
    return { view: body, custom_view: body };
  }
}
