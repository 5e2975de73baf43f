import { randomUUID } from 'node:crypto';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { InitiativeTargetsRepository } from '../../initiative-targets.repository';
import { InitiativeScope } from '../../initiative-scope.service';
import { InitiativeReader } from '../../initiative.reader';
import { assertGateCounts, targetInput } from '../../target-input';
import { assertScopeInsideInitiative } from '../../target-writes';
import type { TargetEnvelope } from '../../targets.response';
import { CreateTargetCommand } from './create-target.command';
import { TxRunner } from '../../../../database/tx-runner';

/**
 * Edit/admin on every project linked to the initiative (organization owner/admin for a projectless
 * initiative). The default scope is the initiative's; a `projects` scope must lie inside it.
 */
@CommandHandler(CreateTargetCommand)
export class CreateTargetHandler implements ICommandHandler<CreateTargetCommand, TargetEnvelope> {
  constructor(
    private readonly tx: TxRunner,
    private readonly scope: InitiativeScope,
    private readonly reader: InitiativeReader,
    private readonly targets: InitiativeTargetsRepository,
  ) {}

  async execute({ actor, initiativeId, dto }: CreateTargetCommand): Promise<TargetEnvelope> {
    const input = targetInput(dto, 'create');
    const scope = input.scope ?? { type: 'initiative' as const, projectIds: [] };
    assertGateCounts(input.mode ?? 'progress', input.currentValue ?? null, input.targetValue ?? null);
    const id = randomUUID();
    const ini = await this.tx.run(async (m) => {
      const found = await this.scope.writable(actor, initiativeId, m, true);
      assertScopeInsideInitiative(found, scope);
      const { scope: _scope, ...fields } = input;
      await this.targets.insert(actor.orgId, id, found.id, scope.type, actor.memberId, fields, m);
      await this.targets.replaceScope(actor.orgId, id, scope.type === 'projects' ? scope.projectIds : [], m);
      return found;
    });
    return { target: await this.reader.target(actor, ini, id) };
  }
}
