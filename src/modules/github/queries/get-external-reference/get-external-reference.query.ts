import type { Actor } from '../../../../common/auth/principal';
import type { TargetType } from '../../external-references.repository';

export class GetExternalReferenceQuery {
  constructor(
    readonly actor: Actor,
    readonly targetType: TargetType,
    readonly targetId: string,
    readonly referenceId: string,
  ) {}
}
