import { Injectable } from '@nestjs/common';
import type { Tx } from '../../database/sql.service';
import { ProjectAccessRepository } from '../projects/project-access.repository';
import { TeamsRepository } from '../teams/teams.repository';
import { AgentsRepository } from './agents.repository';

/** Revokes an agent inside the caller's transaction (DELETE /agents/:agentId, and a personal agent whose owner leaves or becomes a guest). */
@Injectable()
export class AgentRevocation {
  constructor(
    private readonly agents: AgentsRepository,
    private readonly projectAccess: ProjectAccessRepository,
    private readonly teams: TeamsRepository,
  ) {}

  /**
   * Marks the agent's member record removed, revokes every key and drops its project and team
   * entries: its keys fail authentication from the next request on; it leaves every list and no
   * longer counts against the plan.
   */
  async revoke(orgId: string, agentId: string, m: Tx): Promise<void> {
    await this.agents.markRemoved(orgId, agentId, m);
    await this.agents.revokeAllKeys(orgId, agentId, m);
    await this.projectAccess.removeMemberEverywhere(orgId, agentId, m);
    await this.teams.removeMemberEverywhere(orgId, agentId, m);
  }
}
