import { randomUUID } from 'node:crypto';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { InitiativeScope } from '../../initiative-scope.service';
import { initiativeInput } from '../../initiative-input';
import type { InitiativeEnvelope } from '../../initiatives.response';
import { InitiativeReader } from '../../initiative.reader';
import { CreateInitiativeCommand } from './create-initiative.command';

/**
 * With project_id: edit/admin on that project. Without: organization owners/admins only; guests and
 * project-scoped agents get 403 `project_required`.
 */
@CommandHandler(CreateInitiativeCommand)
export class CreateInitiativeHandler implements ICommandHandler<CreateInitiativeCommand, InitiativeEnvelope> {
  constructor(
    private readonly db: DataSource,
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
    await this.db.query(
      `INSERT INTO initiatives (org_id, id, title, name, description, goal_id, owner_member_id, status, start_date, target_date, project_id, created_by_member_id)
       VALUES ($1, $2, $3, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
      [actor.orgId, id, input.title, input.description ?? null, input.goalId ?? null, input.ownerId ?? null, input.status ?? 'active',
        input.startDate ?? null, input.targetDate ?? null, input.projectId ?? null, actor.memberId],
    );
    return { initiative: await this.reader.detail(actor, id) };
  }
}
