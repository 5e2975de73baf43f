import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { AgentManagementPolicy } from '../../agent-management.policy';
import { AgentsRepository } from '../../agents.repository';
import type { AgentKeyListResponse } from '../../agents.response';
import { toKeyResponse } from '../../agents.mapper';
import { ListAgentKeysQuery } from './list-agent-keys.query';

/** Key metadata of a manageable agent (never a full key or its hash). */
@QueryHandler(ListAgentKeysQuery)
export class ListAgentKeysHandler implements IQueryHandler<ListAgentKeysQuery, AgentKeyListResponse> {
  constructor(
    private readonly access: AccessPolicyService,
    private readonly policy: AgentManagementPolicy,
    private readonly agents: AgentsRepository,
  ) {}

  async execute({ actor, agentId }: ListAgentKeysQuery): Promise<AgentKeyListResponse> {
    this.access.assertHuman(actor, 'Only humans can manage agent keys');
    await this.policy.assertManageable(actor, await this.agents.findOne(actor.orgId, agentId));
    const keys = await this.agents.keys(actor.orgId, agentId);
    return { keys: keys.map(toKeyResponse) };
  }
}
