import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { InitiativeScope } from '../../initiative-scope.service';
import { InitiativeReader } from '../../initiative.reader';
import type { TargetListResponse } from '../../targets.response';
import { ListTargetsQuery } from './list-targets.query';

/** Readable initiative; only targets whose typed scope is readable; link ids filtered. */
@QueryHandler(ListTargetsQuery)
export class ListTargetsHandler implements IQueryHandler<ListTargetsQuery, TargetListResponse> {
  constructor(
    private readonly scope: InitiativeScope,
    private readonly reader: InitiativeReader,
  ) {}

  async execute({ actor, initiativeId }: ListTargetsQuery): Promise<TargetListResponse> {
    const ini = await this.scope.readable(actor, initiativeId);
    return { targets: await this.reader.targets(actor, ini) };
  }
}
