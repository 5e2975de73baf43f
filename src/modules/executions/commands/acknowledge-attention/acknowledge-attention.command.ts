import type { Actor } from '../../../../common/auth/principal';
import type { AcknowledgeAttentionDto } from './acknowledge-attention.dto';

export class AcknowledgeAttentionCommand {
  constructor(
    readonly actor: Actor,
    readonly itemId: string,
    readonly dto: AcknowledgeAttentionDto,
  ) {}
}
