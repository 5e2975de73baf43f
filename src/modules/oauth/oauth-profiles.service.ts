import { Injectable, type OnModuleInit } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { AccessPolicyService } from '../../common/access/access-policy.service';
import { AuthRepository } from '../../common/auth/auth.repository';
import { OAuthBearers, type OAuthAgentPrincipal, type OAuthBearerResolver } from '../../common/auth/oauth-bearer';
import { Actor, type HumanPrincipal } from '../../common/auth/principal';
import { isUuid } from '../../common/http/validation';
import { AgentManagementPolicy, agentAsActor } from '../agents/agent-management.policy';
import type { AgentRow } from '../agents/agent.types';
import { AgentsRepository } from '../agents/agents.repository';
import { ProjectsRepository } from '../projects/projects.repository';
import { ProfileErrors } from './oauth-errors';
import { OAuthRepository, type GrantRow } from './oauth.repository';
import { ACCESS_TOKEN_PREFIX, hashSecret, wellFormedSecret } from './oauth-tokens';
import { OAuthUrls } from './oauth-urls';

/** One agent a connection may act as right now. */
export interface UsableProfile {
  profileRef: string;
  org: { id: string; name: string };
  agent: AgentRow;
}

/** Header that selects the profile of a REST call made with an OAuth token covering several agents. */
export const PROFILE_HEADER = 'x-profile-ref';

/**
 * OAuth access tokens as bearers, and the agent profiles of a connection. A consented agent is
 * usable on a request only while it is a live agent that the consenting human may still manage
 * (AgentManagementPolicy, judged with the human's live role): revocation, removal or demotion
 * apply on the next request. Project access is the agent's own, read live.
 */
@Injectable()
export class OAuthProfiles implements OAuthBearerResolver, OnModuleInit {
  constructor(
    private readonly repo: OAuthRepository,
    private readonly auth: AuthRepository,
    private readonly agents: AgentsRepository,
    private readonly policy: AgentManagementPolicy,
    private readonly access: AccessPolicyService,
    private readonly projects: ProjectsRepository,
    private readonly urls: OAuthUrls,
    private readonly bearers: OAuthBearers,
  ) {}

  onModuleInit(): void {
    this.bearers.use(this);
  }

  /** The live grant of an access token bound to this service's resource, or null (unknown, expired, revoked, other resource). */
  async grantOf(token: string, req: FastifyRequest): Promise<GrantRow | null> {
    if (!wellFormedSecret(token, ACCESS_TOKEN_PREFIX)) return null;
    const grant = await this.repo.grantByAccessToken(hashSecret(token), this.urls.resource(req));
    if (grant) void this.repo.touchGrant(grant.id).catch(() => undefined);
    return grant ?? null;
  }

  /** The consented agents the connection may act as now. */
  async usable(grant: GrantRow): Promise<UsableProfile[]> {
    const out: UsableProfile[] = [];
    for (const r of await this.repo.grantAgents(grant.id)) {
      const human = await this.auth.humanMember(r.org_id, grant.user_id);
      if (!human) continue;
      const agent = await this.agents.findOne(r.org_id, r.member_id);
      if (!agent) continue;
      const principal: HumanPrincipal = { kind: 'human', userId: grant.user_id, sessionId: '', email: '', displayName: human.display_name };
      const actor = new Actor(r.org_id, human.id, 'human', human.role, human.display_name, principal);
      if (await this.policy.memberMayManage(actor, agent)) out.push({ profileRef: r.profile_ref, org: { id: r.org_id, name: r.org_name }, agent });
    }
    return out;
  }

  /** The profile a call acts as: the selected one, or the only one (profile errors otherwise). */
  choose(profiles: UsableProfile[], selector: unknown): UsableProfile {
    if (selector !== undefined && selector !== null && selector !== '') {
      const p = isUuid(selector) ? profiles.find((x) => x.profileRef === selector.toLowerCase()) : undefined;
      if (!p) throw ProfileErrors.invalid();
      return p;
    }
    if (profiles.length === 0) throw ProfileErrors.noProfiles();
    if (profiles.length > 1) throw ProfileErrors.required();
    return profiles[0];
  }

  /** The agent principal of a call through this connection acting as profile `p`. */
  principalFor(grant: GrantRow, p: UsableProfile): OAuthAgentPrincipal {
    return {
      kind: 'agent',
      keyId: '',
      orgId: p.org.id,
      memberId: p.agent.id,
      role: p.agent.role,
      displayName: p.agent.display_name,
      agentScope: p.agent.agent_scope,
      ownerMemberId: p.agent.owner_member_id,
      oauth: {
        connection_id: grant.id,
        profile_ref: p.profileRef,
        resource: grant.resource,
        client: { client_id: grant.client_id, client_name: grant.client_name },
        consented_by: { user_id: grant.user_id, display_name: grant.user_display_name },
      },
    };
  }

  /** OAuthBearerResolver: REST calls select a profile with the X-Profile-Ref header. */
  async principal(token: string, req: FastifyRequest): Promise<OAuthAgentPrincipal | null> {
    const grant = await this.grantOf(token, req);
    if (!grant) return null;
    const header = req.headers[PROFILE_HEADER];
    const p = this.choose(await this.usable(grant), Array.isArray(header) ? header.join(',') : header);
    return this.principalFor(grant, p);
  }

  /** The profile summaries of GET /api/oauth/agent-profiles (project access live). */
  async summaries(profiles: UsableProfile[]): Promise<Array<Record<string, unknown>>> {
    const out: Array<Record<string, unknown>> = [];
    for (const p of profiles) {
      const levels = await this.access.projectLevels(agentAsActor(p.org.id, p.agent));
      const names = await this.projects.summaries(
        p.org.id,
        levels.map((l) => l.projectId),
      );
      out.push({
        profile_ref: p.profileRef,
        display_name: p.agent.display_name,
        organization: p.org,
        projects: levels
          .filter((l) => names.has(l.projectId))
          .map((l) => ({ id: l.projectId, name: names.get(l.projectId)!.name, access_level: l.accessLevel })),
        designation: p.agent.agent_scope,
      });
    }
    return out;
  }
}
