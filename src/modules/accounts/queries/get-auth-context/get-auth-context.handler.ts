import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { AuthRepository } from '../../../../common/auth/auth.repository';
import { oauthOf } from '../../../../common/auth/oauth-bearer';
import { Actor } from '../../../../common/auth/principal';
import { Errors } from '../../../../common/errors/domain-error';
import { isUuid } from '../../../../common/http/validation';
import type { AuthContext } from '../../accounts.response';
import { GetAuthContextQuery } from './get-auth-context.query';

@QueryHandler(GetAuthContextQuery)
export class GetAuthContextHandler implements IQueryHandler<GetAuthContextQuery, AuthContext> {
  constructor(
    private readonly auth: AuthRepository,
    private readonly access: AccessPolicyService,
  ) {}

  async execute({ principal, orgId }: GetAuthContextQuery): Promise<AuthContext> {
    if (principal.kind === 'agent') {
      const actor = new Actor(
        principal.orgId,
        principal.memberId,
        'agent',
        principal.role,
        principal.displayName,
        principal,
        principal.agentScope,
        principal.ownerMemberId,
      );
      const projectAccess = await this.access.projectLevels(actor);
      const oauth = oauthOf(principal);
      return {
        type: 'agent',
        userId: null,
        orgId: principal.orgId,
        role: principal.role,
        memberId: principal.memberId,
        displayName: principal.displayName,
        agentId: principal.memberId,
        memberType: 'agent',
        agentScope: principal.agentScope,
        scopes: [],
        projectAccess,
        ...(oauth ? { oauth } : {}),
      };
    }
    if (orgId !== undefined && !isUuid(orgId)) throw Errors.validation('orgId must be a UUID');
    const m = await this.auth.firstMembership(principal.userId, orgId ?? null);
    if (orgId && !m) throw Errors.notFound();
    return {
      type: 'human',
      userId: principal.userId,
      orgId: m?.org_id ?? null,
      role: m?.role ?? null,
      memberId: m?.id ?? null,
      displayName: principal.displayName,
      email: principal.email,
    };
  }
}
