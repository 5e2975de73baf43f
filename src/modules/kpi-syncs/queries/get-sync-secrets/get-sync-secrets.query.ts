import type { Actor } from '../../../../common/auth/principal';

export class GetSyncSecretsQuery {
  constructor(
    readonly actor: Actor,
    readonly kpiId: string,
    readonly syncId: string,
  ) {}
}
