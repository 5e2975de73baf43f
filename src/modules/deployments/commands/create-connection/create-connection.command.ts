import type { Actor } from '../../../../common/auth/principal';
import type { CreateConnectionDto } from './create-connection.dto';

export class CreateConnectionCommand {
  constructor(
    readonly actor: Actor,
    readonly dto: CreateConnectionDto,
  ) {}
}
