import type { Actor } from '../../../../common/auth/principal';
import type { CreateAttentionDto } from './create-attention.dto';

export class CreateAttentionCommand {
  constructor(
    readonly actor: Actor,
    readonly executionId: string,
    readonly dto: CreateAttentionDto,
  ) {}
}
