import { Query } from '@nestjs/cqrs';
import type { Actor } from '../../../../common/auth/principal';
import type { IssueDetailEnvelope } from '../../issues.response';

export class GetIssueQuery extends Query<IssueDetailEnvelope> {
  constructor(
    readonly actor: Actor,
    /** Any reference form (UUID, number, #n, PREFIX-n, TSK-n, KEY-n) */
    readonly reference: string,
    readonly include: unknown,
  ) {
    super();
  }
}
