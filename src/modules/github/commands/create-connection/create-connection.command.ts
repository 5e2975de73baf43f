import type { Actor } from '../../../../common/auth/principal';
import type { CreateGithubConnectionDto } from '../../github.dto';

export class CreateConnectionCommand {
  constructor(
    readonly actor: Actor,
    readonly dto: CreateGithubConnectionDto,
  ) {}
}
