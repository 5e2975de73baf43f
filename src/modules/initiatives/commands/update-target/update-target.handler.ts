import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { InitiativeScope } from '../../initiative-scope.service';
import { InitiativeReader } from '../../initiative.reader';
import { assertGateCounts, targetInput } from '../../target-input';
import { assertScopeInsideInitiative, TARGET_COLUMNS, writeScope } from '../../target-writes';
import type { TargetEnvelope } from '../../targets.response';
import { UpdateTargetCommand } from './update-target.command';

/**
 * Edit/admin on every project in the target's typed scope (owner/admin when it is empty). Changing
 * the scope also needs the initiative write rule and a scope inside the initiative. Gate counts are
 * checked on the merged record.
 */
@CommandHandler(UpdateTargetCommand)
export class UpdateTargetHandler implements ICommandHandler<UpdateTargetCommand, TargetEnvelope> {
  constructor(
    private readonly db: DataSource,
    private readonly scope: InitiativeScope,
    private readonly reader: InitiativeReader,
  ) {}

  async execute({ actor, initiativeId, targetId, dto }: UpdateTargetCommand): Promise<TargetEnvelope> {
    const input = targetInput(dto, 'update');
    const ini = await this.db.transaction(async (m) => {
      const found = await this.scope.readable(actor, initiativeId, m, true);
      const target = await this.scope.target(actor, found, targetId, m);
      await this.scope.assertTargetWrite(actor, target);
      if (input.scope) {
        await this.scope.assertInitiativeWrite(actor, found);
        assertScopeInsideInitiative(found, input.scope);
      }
      const [cur]: Array<{ mode: string; current_value: number | null; target_value: number | null }> = await m.query(
        'SELECT mode, current_value, target_value FROM initiative_targets WHERE org_id = $1 AND id = $2',
        [actor.orgId, target.id],
      );
      assertGateCounts(
        input.mode ?? cur.mode,
        input.currentValue !== undefined ? input.currentValue : cur.current_value,
        input.targetValue !== undefined ? input.targetValue : cur.target_value,
      );
      const sets: string[] = [];
      const args: unknown[] = [actor.orgId, target.id];
      for (const [k, v] of Object.entries(input)) {
        if (k === 'scope') continue;
        args.push(v);
        sets.push(`${TARGET_COLUMNS[k as keyof typeof TARGET_COLUMNS]} = $${args.length}`);
      }
      if (input.scope) {
        args.push(input.scope.type);
        sets.push(`scope_type = $${args.length}`);
        await writeScope(m, actor.orgId, target.id, input.scope);
      }
      if (sets.length) await m.query(`UPDATE initiative_targets SET ${sets.join(', ')}, updated_at = now() WHERE org_id = $1 AND id = $2`, args);
      return found;
    });
    return { target: await this.reader.target(actor, await this.scope.readable(actor, ini.id), targetId) };
  }
}
