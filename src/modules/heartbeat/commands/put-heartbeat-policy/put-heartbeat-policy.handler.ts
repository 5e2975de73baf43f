import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { HeartbeatPolicyService } from '../../heartbeat-policy.service';
import { PutHeartbeatPolicyCommand } from './put-heartbeat-policy.command';

@CommandHandler(PutHeartbeatPolicyCommand)
export class PutHeartbeatPolicyHandler implements ICommandHandler<PutHeartbeatPolicyCommand, Record<string, unknown>> {
  constructor(private readonly policies: HeartbeatPolicyService) {}

  execute({ actor, agentId, body }: PutHeartbeatPolicyCommand): Promise<Record<string, unknown>> {
    return this.policies.put(actor, agentId, body);
  }
}
