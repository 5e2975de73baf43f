import { randomUUID } from 'node:crypto';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { InitiativeScope } from '../../initiative-scope.service';
import { InitiativeReader } from '../../initiative.reader';
import { assertGateCounts, targetInput } from '../../target-input';
import { assertScopeInsideInitiative, TARGET_COLUMNS, writeScope } from '../../target-writes';
import type { TargetEnvelope } from '../../targets.response';
import { CreateTargetCommand } from './create-target.command';

/**
 * Edit/admin on every project linked to the initiative (organization owner/admin for a projectless
 * initiative). The default scope is the initiative's; a `projects` scope must lie inside it.
 */
@CommandHandler(CreateTargetCommand)
export class CreateTargetHandler implements ICommandHandler<CreateTargetCommand, TargetEnvelope> {
  constructor(
    private readonly db: DataSource,
    private readonly scope: InitiativeScope,
    private readonly reader: InitiativeReader,
  ) {}

  async execute({ actor, initiativeId, dto }: CreateTargetCommand): Promise<TargetEnvelope> {
    const input = targetInput(dto, 'create');
    const scope = input.scope ?? { type: 'initiative' as const, projectIds: [] };
    assertGateCounts(input.mode ?? 'progress', input.currentValue ?? null, input.targetValue ?? null);
    const id = randomUUID();
    const ini = await this.db.transaction(async (m) => {
      const found = await this.scope.writable(actor, initiativeId, m, true);
      assertScopeInsideInitiative(found, scope);
      const cols = ['org_id', 'id', 'initiative_id', 'scope_type', 'created_by_member_id'];
      const args: unknown[] = [actor.orgId, id, found.id, scope.type, actor.memberId];
      for (const [k, v] of Object.entries(input)) {
        if (k === 'scope') continue;
        cols.push(TARGET_COLUMNS[k as keyof typeof TARGET_COLUMNS]);
        args.push(v);
      }
      await m.query(`INSERT INTO initiative_targets (${cols.join(', ')}) VALUES (${args.map((_, i) => `$${i + 1}`).join(', ')})`, args);
      await writeScope(m, actor.orgId, id, scope);
      return found;
    });
    return { target: await this.reader.target(actor, ini, id) };
  }
}
