import { Query } from '@nestjs/cqrs';
import type { Actor } from '../../../../common/auth/principal';
import type { OrgActivityResponse } from '../../activity.response';

export class ListOrgActivityQuery extends Query<OrgActivityResponse> {
  constructor(
    readonly actor: Actor,
    readonly query: Record<string, unknown>,
  ) {
    super();
  }
}
