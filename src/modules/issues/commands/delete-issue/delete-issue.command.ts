import { Command } from '@nestjs/cqrs';
import type { Actor } from '../../../../common/auth/principal';
import type { IssuesSuccessResponse } from '../../issues.response';

export class DeleteIssueCommand extends Command<IssuesSuccessResponse> {
  constructor(
    readonly actor: Actor,
    readonly issueId: string,
  ) {
    super();
  }
}
