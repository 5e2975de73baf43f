import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { Errors } from '../../../../common/errors/domain-error';
import { DomainEvents, snapshotOf } from '../../../../common/events/domain-events';
import { ExternalReferencesRepository } from '../../external-references.repository';
import { referenceEntry } from '../../github-activity';
import type { GithubSuccessResponse } from '../../github.response';
import { ReferenceTargets } from '../../reference-targets.service';
import { DeleteExternalReferenceCommand } from './delete-external-reference.command';

/**
 * Unlinks a reference from its target (edit/admin), with its `external_reference.unlinked`
 * timeline entry in the same transaction; artifact revisions that named it keep their snapshot.
 */
@CommandHandler(DeleteExternalReferenceCommand)
export class DeleteExternalReferenceHandler implements ICommandHandler<DeleteExternalReferenceCommand, GithubSuccessResponse> {
  constructor(
    private readonly db: DataSource,
    private readonly targets: ReferenceTargets,
    private readonly refs: ExternalReferencesRepository,
    private readonly events: DomainEvents,
  ) {}

  async execute({ actor, targetType, targetId, referenceId }: DeleteExternalReferenceCommand): Promise<GithubSuccessResponse> {
    const target = await this.targets.write(actor, targetType, targetId);
    const gone = await this.db.transaction(async (m) => {
      const link = await this.refs.unlink(actor.orgId, targetType, target.id, referenceId, m);
      if (link)
        await this.events.stage(
          m,
          referenceEntry(actor.orgId, target, 'external_reference.unlinked', link, { memberId: actor.memberId, snapshot: snapshotOf(actor) }),
        );
      return link;
    });
    if (!gone) throw Errors.notFound('External reference not found');
    return { success: true };
  }
}
