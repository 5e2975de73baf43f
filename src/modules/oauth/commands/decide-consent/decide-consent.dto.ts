import { Allow } from 'class-validator';
import { Alias } from '../../../../common/http/aliases';

/** The human's decision on an authorization request (values checked by the handler, so errors name the field sent). */
export class DecideConsentDto {
  /** The `authorization_id` from GET /api/oauth/authorize */
  @Allow()
  @Alias('authorizationId')
  authorization_id: string;

  /** true: approve for `agent_ids`; false: deny (the client gets `error=access_denied`) */
  @Allow()
  approve: boolean;

  /** Approve only: 1..20 agents this connection may act as, each one the human may manage now */
  @Allow()
  @Alias('agentIds')
  agent_ids?: string[];
}
