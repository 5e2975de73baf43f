import type { Actor } from '../../../../common/auth/principal';
import type { ResolveAttentionDto } from './resolve-attention.dto';

export class ResolveAttentionCommand {
  constructor(
    readonly actor: Actor,
    readonly itemId: string,
    readonly dto: ResolveAttentionDto,
  ) {}
}
