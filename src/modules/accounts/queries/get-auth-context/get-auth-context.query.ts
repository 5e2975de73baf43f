import type { Principal } from '../../../../common/auth/principal';

export class GetAuthContextQuery {
  constructor(
    readonly principal: Principal,
    /** Humans may name the organization; otherwise the first one they joined. */
    readonly orgId: string | undefined,
  ) {}
}
