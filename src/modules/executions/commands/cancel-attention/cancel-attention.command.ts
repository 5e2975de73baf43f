import type { Actor } from '../../../../common/auth/principal';
import type { CancelAttentionDto } from './cancel-attention.dto';

export class CancelAttentionCommand {
  constructor(
    readonly actor: Actor,
    readonly itemId: string,
    readonly dto: CancelAttentionDto,
  ) {}
}
