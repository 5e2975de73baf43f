import { randomUUID } from 'node:crypto';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { Errors } from '../../../../common/errors/domain-error';
import { DomainEvents } from '../../../../common/events/domain-events';
import { ArtifactAccess } from '../../artifact-access.service';
import { stageArtifactActivity } from '../../artifact-events';
import { linkConflict } from '../../artifact-errors';
import { linkTarget } from '../../artifact-input';
import { toLinkResponse } from '../../artifacts.mapper';
import { ArtifactsRepository } from '../../artifacts.repository';
import type { ArtifactLinkEnvelope } from '../../artifacts.response';
import { CreateLinkCommand } from './create-link.command';

/**
 * Links an artifact to an issue (any reference form) or project: write access to the artifact and
 * edit on the target (unreadable target: 404). Duplicates, a second prd/implementation_plan on an
 * issue, or such an artifact on a second issue: 409 with a code.
 */
@CommandHandler(CreateLinkCommand)
export class CreateLinkHandler implements ICommandHandler<CreateLinkCommand, ArtifactLinkEnvelope> {
  constructor(
    private readonly db: DataSource,
    private readonly artifacts: ArtifactsRepository,
    private readonly access: ArtifactAccess,
    private readonly events: DomainEvents,
  ) {}

  async execute({ actor, artifactId, dto }: CreateLinkCommand): Promise<ArtifactLinkEnvelope> {
    const { artifact } = await this.access.write(actor, artifactId);
    const target = await this.access.target(actor, linkTarget(dto, 'body'), 'edit');
    const id = randomUUID();
    const at = new Date();
    await this.db.transaction(async (m) => {
      try {
        await this.artifacts.insertLink(
          actor.orgId,
          { id, artifactId, artifactType: artifact.type, targetType: target.type, targetId: target.id, createdByMemberId: actor.memberId, at },
          m,
        );
      } catch (e) {
        throw linkConflict(e);
      }
      await this.artifacts.touch(actor.orgId, artifactId, at, m);
      await stageArtifactActivity(this.events, m, actor, 'artifact.linked', artifact, [
        { target_type: target.type, target_id: target.id, project_id: target.projectId },
      ]);
    });
    const link = (await this.artifacts.links(actor.orgId, [artifactId])).find((l) => l.id === id);
    if (!link) throw Errors.notFound('Link not found');
    return { link: toLinkResponse(link) };
  }
}
