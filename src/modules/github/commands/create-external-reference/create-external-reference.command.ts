import type { Actor } from '../../../../common/auth/principal';
import type { TargetType } from '../../external-references.repository';

export class CreateExternalReferenceCommand {
  constructor(
    readonly actor: Actor,
    readonly targetType: TargetType,
    readonly targetId: string,
    readonly url: unknown,
  ) {}
}
