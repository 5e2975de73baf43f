import { Command } from '@nestjs/cqrs';
import type { Actor } from '../../../../common/auth/principal';
import type { IssueEnvelope } from '../../issues.response';
import type { CreateIssueDto } from './create-issue.dto';

export class CreateIssueCommand extends Command<IssueEnvelope> {
  constructor(
    readonly actor: Actor,
    readonly dto: CreateIssueDto,
  ) {
    super();
  }
}
