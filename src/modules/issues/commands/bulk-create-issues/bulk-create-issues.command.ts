import { Command } from '@nestjs/cqrs';
import type { Actor } from '../../../../common/auth/principal';
import type { IssueBulkResponse } from '../../issues.response';
import type { BulkCreateIssuesDto } from './bulk-create-issues.dto';

export class BulkCreateIssuesCommand extends Command<IssueBulkResponse> {
  constructor(
    readonly actor: Actor,
    readonly dto: BulkCreateIssuesDto,
  ) {
    super();
  }
}
