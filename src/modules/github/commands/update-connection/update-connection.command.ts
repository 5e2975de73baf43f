import type { Actor } from '../../../../common/auth/principal';
import type { UpdateGithubConnectionDto } from '../../github.dto';

export class UpdateConnectionCommand {
  constructor(
    readonly actor: Actor,
    readonly connectionId: string,
    readonly dto: UpdateGithubConnectionDto,
  ) {}
}
