import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { Errors } from '../../../../common/errors/domain-error';
import { ExternalReferencesRepository } from '../../external-references.repository';
import type { GithubSuccessResponse } from '../../github.response';
import { ReferenceTargets } from '../../reference-targets.service';
import { DeleteExternalReferenceCommand } from './delete-external-reference.command';

/** Unlinks a reference from its target (edit/admin); artifact revisions that named it keep their snapshot. */
@CommandHandler(DeleteExternalReferenceCommand)
export class DeleteExternalReferenceHandler implements ICommandHandler<DeleteExternalReferenceCommand, GithubSuccessResponse> {
  constructor(
    private readonly targets: ReferenceTargets,
    private readonly refs: ExternalReferencesRepository,
  ) {}

  async execute({ actor, targetType, targetId, referenceId }: DeleteExternalReferenceCommand): Promise<GithubSuccessResponse> {
    await this.targets.write(actor, targetType, targetId);
    if (!(await this.refs.unlink(actor.orgId, targetType, targetId, referenceId))) throw Errors.notFound('External reference not found');
    return { success: true };
  }
}
