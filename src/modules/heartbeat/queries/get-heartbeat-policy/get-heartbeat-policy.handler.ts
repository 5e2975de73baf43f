import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { HeartbeatPolicyService } from '../../heartbeat-policy.service';
import { GetHeartbeatPolicyQuery } from './get-heartbeat-policy.query';

@QueryHandler(GetHeartbeatPolicyQuery)
export class GetHeartbeatPolicyHandler implements IQueryHandler<GetHeartbeatPolicyQuery, Record<string, unknown>> {
  constructor(private readonly policies: HeartbeatPolicyService) {}

  execute({ actor, agentId }: GetHeartbeatPolicyQuery): Promise<Record<string, unknown>> {
    return this.policies.get(actor, agentId);
  }
}
