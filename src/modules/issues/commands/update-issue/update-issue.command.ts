import { Command } from '@nestjs/cqrs';
import type { EntityManager } from 'typeorm';
import type { Actor } from '../../../../common/auth/principal';
import { type ChangeOrigin, MEMBER_ORIGIN } from '../../../../common/events/domain-events';
import type { IssueUpdateResponse } from '../../issues.response';
import type { UpdateIssueDto } from './update-issue.dto';

export class UpdateIssueCommand extends Command<IssueUpdateResponse> {
  constructor(
    readonly actor: Actor,
    readonly issueId: string,
    readonly dto: UpdateIssueDto,
    /** Automation rule actions pass their origin (depth) so their changes do not re-trigger rules without bound. */
    readonly origin: ChangeOrigin = MEMBER_ORIGIN,
    /** The caller's transaction (an automation job's claim): the update runs in a savepoint of it. */
    readonly tx?: EntityManager,
  ) {
    super();
  }
}
