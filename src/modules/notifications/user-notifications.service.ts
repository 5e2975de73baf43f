import { Injectable } from '@nestjs/common';
import { Actor, type HumanPrincipal } from '../../common/auth/principal';
import { MembersRepository } from '../members/members.repository';
import { NotificationsReader } from './notifications.reader';
import type { ReaderScope } from './notifications.repository';

/**
 * A signed-in human's notifications across every organization it belongs to: each membership is
 * read as that member with its live access (AccessPolicyService through NotificationsReader), so
 * nothing shows that the member could not read in its own organization.
 */
@Injectable()
export class UserNotifications {
  constructor(
    private readonly members: MembersRepository,
    private readonly reader: NotificationsReader,
  ) {}

  /** The reader scope of each live membership of the user. */
  async scopes(principal: HumanPrincipal): Promise<ReaderScope[]> {
    const out: ReaderScope[] = [];
    for (const m of await this.members.humanMembershipsOf(principal.userId)) {
      out.push(await this.reader.scope(new Actor(m.org_id, m.member_id, 'human', m.role, m.display_name, principal)));
    }
    return out;
  }
}
