import { Command } from '@nestjs/cqrs';
import type { Actor } from '../../../../common/auth/principal';
import type { IssueEnvelope } from '../../issues.response';

/** Archive (`archived: true`) or unarchive (`archived: false`) an issue; idempotent. */
export class ArchiveIssueCommand extends Command<IssueEnvelope> {
  constructor(
    readonly actor: Actor,
    readonly issueId: string,
    readonly archived: boolean,
  ) {
    super();
  }
}
