import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { HeartbeatService, parseHeartbeatQuery } from '../../heartbeat.service';
import { GetHeartbeatQuery } from './get-heartbeat.query';

@QueryHandler(GetHeartbeatQuery)
export class GetHeartbeatHandler implements IQueryHandler<GetHeartbeatQuery, Record<string, unknown>> {
  constructor(private readonly heartbeat: HeartbeatService) {}

  execute({ actor, query, surface }: GetHeartbeatQuery): Promise<Record<string, unknown>> {
    return this.heartbeat.heartbeat(actor, parseHeartbeatQuery(query), surface);
  }
}
