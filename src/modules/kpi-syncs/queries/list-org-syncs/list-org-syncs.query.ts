import type { Actor } from '../../../../common/auth/principal';

export class ListOrgSyncsQuery {
  constructor(
    readonly actor: Actor,
    readonly query: Record<string, unknown>,
  ) {}
}
