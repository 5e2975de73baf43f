import type { Actor } from '../../../../common/auth/principal';
import type { AddIssueLabelDto } from './add-issue-label.dto';

export class AddIssueLabelCommand {
  constructor(
    readonly actor: Actor,
    readonly issueId: string,
    readonly dto: AddIssueLabelDto,
  ) {}
}
