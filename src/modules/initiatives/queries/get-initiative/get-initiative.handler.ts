import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { InitiativeScope } from '../../initiative-scope.service';
import { InitiativeReader } from '../../initiative.reader';
import type { InitiativeEnvelope } from '../../initiatives.response';
import { GetInitiativeQuery } from './get-initiative.query';

/** Readable initiative (404 otherwise) with its readable `kpi_impacts`. */
@QueryHandler(GetInitiativeQuery)
export class GetInitiativeHandler implements IQueryHandler<GetInitiativeQuery, InitiativeEnvelope> {
  constructor(
    private readonly scope: InitiativeScope,
    private readonly reader: InitiativeReader,
  ) {}

  async execute({ actor, initiativeId }: GetInitiativeQuery): Promise<InitiativeEnvelope> {
    const ini = await this.scope.readable(actor, initiativeId);
    return { initiative: await this.reader.detail(actor, ini.id) };
  }
}
