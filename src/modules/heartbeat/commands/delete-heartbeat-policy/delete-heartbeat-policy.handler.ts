import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { HeartbeatPolicyService } from '../../heartbeat-policy.service';
import { DeleteHeartbeatPolicyCommand } from './delete-heartbeat-policy.command';

@CommandHandler(DeleteHeartbeatPolicyCommand)
export class DeleteHeartbeatPolicyHandler implements ICommandHandler<DeleteHeartbeatPolicyCommand, Record<string, unknown>> {
  constructor(private readonly policies: HeartbeatPolicyService) {}

  execute({ actor, agentId }: DeleteHeartbeatPolicyCommand): Promise<Record<string, unknown>> {
    return this.policies.remove(actor, agentId);
  }
}
