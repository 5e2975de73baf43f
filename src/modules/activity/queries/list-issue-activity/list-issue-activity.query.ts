import { Query } from '@nestjs/cqrs';
import type { Actor } from '../../../../common/auth/principal';
import type { IssueActivityResponse } from '../../activity.response';

export class ListIssueActivityQuery extends Query<IssueActivityResponse> {
  constructor(
    readonly actor: Actor,
    readonly issueId: string,
    readonly query: Record<string, unknown>,
  ) {
    super();
  }
}
