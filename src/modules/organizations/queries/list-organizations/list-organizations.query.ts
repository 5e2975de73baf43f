import type { Principal } from '../../../../common/auth/principal';
import type { PageRequest } from '../../../../common/http/list';

export class ListOrganizationsQuery {
  constructor(
    readonly principal: Principal,
    readonly page: PageRequest,
  ) {}
}
