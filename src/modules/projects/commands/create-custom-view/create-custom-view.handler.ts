import { randomUUID } from 'node:crypto';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { parseFilters, parseSort } from '../../custom-view.rules';
import { CustomViewsRepository } from '../../custom-views.repository';
import type { CustomViewEntity } from '../../entities/custom-view.entity';
import { toCustomViewResponse } from '../../projects.mapper';
import type { CustomViewEnvelope } from '../../projects.response';
import { CreateCustomViewCommand } from './create-custom-view.command';

/** Saves a named issue filter/sort for the project. Needs project edit. */
@CommandHandler(CreateCustomViewCommand)
export class CreateCustomViewHandler implements ICommandHandler<CreateCustomViewCommand> {
  constructor(
    private readonly views: CustomViewsRepository,
    private readonly access: AccessPolicyService,
  ) {}

  async execute({ actor, projectId, dto }: CreateCustomViewCommand): Promise<CustomViewEnvelope> {
    await this.access.assertProjectWrite(actor, projectId, 'edit');
    const filters = parseFilters(dto.filters);
    const sort = parseSort(dto.sort);
    const displayMode = dto.display_mode ?? 'list';
    const now = new Date();
    const view: CustomViewEntity = {
      orgId: actor.orgId,
      id: randomUUID(),
      projectId,
      name: dto.name,
      filters: filters as Record<string, unknown>,
      sort: sort as Record<string, unknown> | null,
      displayMode,
      color: dto.color ?? null,
      icon: dto.icon ?? null,
      isDefault: false,
      createdByMemberId: actor.memberId,
      createdAt: now,
      updatedAt: now,
    };
    await this.views.insert(view);
    const body = toCustomViewResponse(view);
    return { view: body, custom_view: body };
  }
}
