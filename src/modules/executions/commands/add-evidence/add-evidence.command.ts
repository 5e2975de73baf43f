import type { Actor } from '../../../../common/auth/principal';
import type { AddEvidenceDto } from './add-evidence.dto';

export class AddEvidenceCommand {
  constructor(
    readonly actor: Actor,
    readonly executionId: string,
    readonly dto: AddEvidenceDto,
  ) {}
}
