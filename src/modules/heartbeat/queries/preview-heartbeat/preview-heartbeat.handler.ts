import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { HeartbeatPolicyService } from '../../heartbeat-policy.service';
import { PreviewHeartbeatQuery } from './preview-heartbeat.query';

/** Composes the heartbeat as the agent without persisting anything (no policy, no stream, no cursor). */
@QueryHandler(PreviewHeartbeatQuery)
export class PreviewHeartbeatHandler implements IQueryHandler<PreviewHeartbeatQuery, Record<string, unknown>> {
  constructor(private readonly policies: HeartbeatPolicyService) {}

  execute({ actor, agentId, body, view }: PreviewHeartbeatQuery): Promise<Record<string, unknown>> {
    return this.policies.preview(actor, agentId, body, view);
  }
}
