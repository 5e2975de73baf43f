import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { InitiativeScope } from '../../initiative-scope.service';
import { InitiativeReader } from '../../initiative.reader';
import type { TargetEnvelope } from '../../targets.response';
import { GetTargetQuery } from './get-target.query';

/** Read access to the typed target scope; an unreadable target is 404. */
@QueryHandler(GetTargetQuery)
export class GetTargetHandler implements IQueryHandler<GetTargetQuery, TargetEnvelope> {
  constructor(
    private readonly scope: InitiativeScope,
    private readonly reader: InitiativeReader,
  ) {}

  async execute({ actor, initiativeId, targetId }: GetTargetQuery): Promise<TargetEnvelope> {
    const ini = await this.scope.readable(actor, initiativeId);
    const t = await this.scope.target(actor, ini, targetId);
    return { target: await this.reader.target(actor, ini, t.id) };
  }
}
