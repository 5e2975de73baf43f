import type { Actor } from '../../../../common/auth/principal';
import type { UpdateEmailDto } from './update-email.dto';

export class UpdateEmailCommand {
  constructor(
    readonly actor: Actor,
    readonly emailId: string,
    readonly dto: UpdateEmailDto,
  ) {}
}
