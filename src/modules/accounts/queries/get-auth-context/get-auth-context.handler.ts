import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { Actor } from '../../../../common/auth/principal';
import { Errors } from '../../../../common/errors/domain-error';
import { isUuid } from '../../../../common/http/validation';
import type { AuthContext } from '../../accounts.response';
import { GetAuthContextQuery } from './get-auth-context.query';

@QueryHandler(GetAuthContextQuery)
export class GetAuthContextHandler implements IQueryHandler<GetAuthContextQuery, AuthContext> {
  constructor(
    private readonly db: DataSource,
    private readonly access: AccessPolicyService,
  ) {}

  async execute({ principal, orgId }: GetAuthContextQuery): Promise<AuthContext> {
    if (principal.kind === 'agent') {
      const actor = new Actor(principal.orgId, principal.memberId, 'agent', principal.role, principal.displayName, principal, principal.agentScope, principal.ownerMemberId);
      const projectAccess = await this.access.projectLevels(actor);
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
      };
    }
    if (orgId !== undefined && !isUuid(orgId)) throw Errors.validation('orgId must be a UUID');
    const rows: Array<{ org_id: string; id: string; role: AuthContext['role'] }> = await this.db.query(
      `SELECT org_id, id, role FROM members
        WHERE user_id = $1 AND removed_at IS NULL AND ($2::uuid IS NULL OR org_id = $2::uuid)
        ORDER BY created_at, org_id LIMIT 1`,
      [principal.userId, orgId ?? null],
    );
    if (orgId && !rows[0]) throw Errors.notFound();
    const m = rows[0];
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
