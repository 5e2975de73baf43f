import { Command } from '@nestjs/cqrs';
import type { Actor } from '../../../../common/auth/principal';
import type { IssueUpdateResponse } from '../../issues.response';
import type { UpdateIssueDto } from './update-issue.dto';

export class UpdateIssueCommand extends Command<IssueUpdateResponse> {
  constructor(
    readonly actor: Actor,
    readonly issueId: string,
    readonly dto: UpdateIssueDto,
  ) {
    super();
  }
}
