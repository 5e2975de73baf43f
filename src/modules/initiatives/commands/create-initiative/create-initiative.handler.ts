import { randomUUID } from 'node:crypto';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { InitiativeScope } from '../../initiative-scope.service';
import { initiativeInput } from '../../initiative-input';
import type { InitiativeEnvelope } from '../../initiatives.response';
import { InitiativeReader } from '../../initiative.reader';
import { InitiativesRepository } from '../../initiatives.repository';
import { CreateInitiativeCommand } from './create-initiative.command';

/**
 * With project_id: edit/admin on that project. Without: organization owners/admins only; guests and
 * project-scoped agents get 403 `project_required`.
 */
@CommandHandler(CreateInitiativeCommand)
export class CreateInitiativeHandler implements ICommandHandler<CreateInitiativeCommand, InitiativeEnvelope> {
  constructor(
    private readonly initiatives: InitiativesRepository,
    private readonly scope: InitiativeScope,
    private readonly reader: InitiativeReader,
  ) {}

  async execute({ actor, dto }: CreateInitiativeCommand): Promise<InitiativeEnvelope> {
    const input = initiativeInput(dto, 'create');
    if (input.projectId) await this.scope.writableProject(actor, input.projectId);
    else await this.scope.assertProjectlessCreate(actor);
    if (input.goalId) await this.scope.assertGoalReadable(actor, input.goalId);
    if (input.ownerId) await this.scope.assertActiveMember(actor, input.ownerId);
    const id = randomUUID();
    await this.initiatives.insert(actor.orgId, {
      id,
      title: input.title!,
      description: input.description ?? null,
      goalId: input.goalId ?? null,
      ownerMemberId: input.ownerId ?? null,
      status: input.status ?? 'active',
      startDate: input.startDate ?? null,
      targetDate: input.targetDate ?? null,
      projectId: input.projectId ?? null,
      createdByMemberId: actor.memberId,
    });
    return { initiative: await this.reader.detail(actor, id) };
  }
}
