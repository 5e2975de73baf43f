import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { Errors } from '../../../../common/errors/domain-error';
import { DomainEvents } from '../../../../common/events/domain-events';
import { ArtifactAccess } from '../../artifact-access.service';
import { stageArtifactActivity } from '../../artifact-events';
import { ArtifactsRepository } from '../../artifacts.repository';
import type { ArtifactSuccessResponse } from '../../artifacts.response';
import { DeleteLinkCommand } from './delete-link.command';

/**
 * Unlinks atomically: write access to the artifact (a link whose target the caller cannot read is
 * 404). Removing the final link needs an organization owner or admin (403); the artifact row is
 * locked so that two removals cannot both see another link left.
 */
@CommandHandler(DeleteLinkCommand)
export class DeleteLinkHandler implements ICommandHandler<DeleteLinkCommand, ArtifactSuccessResponse> {
  constructor(
    private readonly db: DataSource,
    private readonly artifacts: ArtifactsRepository,
    private readonly access: ArtifactAccess,
    private readonly events: DomainEvents,
  ) {}

  async execute({ actor, artifactId, linkId }: DeleteLinkCommand): Promise<ArtifactSuccessResponse> {
    const { artifact, visibleLinks } = await this.access.read(actor, artifactId);
    const link = visibleLinks.find((l) => l.id === linkId);
    if (!link) throw Errors.notFound('Link not found');
    await this.access.write(actor, artifactId);
    await this.db.transaction(async (m) => {
      if (!(await this.artifacts.lock(actor.orgId, artifactId, m))) throw Errors.notFound('Artifact not found');
      if ((await this.artifacts.countLinks(actor.orgId, artifactId, m)) <= 1)
        this.access.assertOrgAdmin(actor, "Removing an artifact's final link needs an organization owner or admin");
      if (!(await this.artifacts.deleteLink(actor.orgId, artifactId, linkId, m))) throw Errors.notFound('Link not found');
      await this.artifacts.touch(actor.orgId, artifactId, new Date(), m);
      await stageArtifactActivity(this.events, m, actor, 'artifact.unlinked', artifact, [link]);
    });
    return { success: true };
  }
}
