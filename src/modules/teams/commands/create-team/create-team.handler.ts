import { randomUUID } from 'node:crypto';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { Errors } from '../../../../common/errors/domain-error';
import { TeamEntity } from '../../entities/team.entity';
import { cleanDescription } from '../../../../common/http/input';
import { findTeam, isUniqueViolation } from '../../team.reader';
import { slugify } from '../../../../common/naming/slug';
import { nextFreeSlug, slugConflict, slugTaken } from '../../team-slug';
import { toTeamResponse } from '../../teams.mapper';
import type { TeamResponse } from '../../teams.response';
import { CreateTeamCommand } from './create-team.command';

/** Derived slugs are retried when a concurrent create takes the same one. */
const AUTO_SLUG_ATTEMPTS = 5;

/** Owners and admins create teams. A single-row insert: no transaction needed. */
@CommandHandler(CreateTeamCommand)
export class CreateTeamHandler implements ICommandHandler<CreateTeamCommand, TeamResponse> {
  constructor(
    private readonly db: DataSource,
    private readonly access: AccessPolicyService,
  ) {}

  async execute({ actor, input }: CreateTeamCommand): Promise<TeamResponse> {
    this.access.assertOrgAdmin(actor, 'Only organization owners and admins can create teams');
    const explicit = input.slug ?? undefined;
    if (explicit && (await slugTaken(this.db, actor.orgId, explicit))) throw slugConflict(explicit);
    const base = slugify(input.name, 'team');
    for (let attempt = 1; ; attempt++) {
      const slug = explicit ?? (await nextFreeSlug(this.db, actor.orgId, base));
      const now = new Date();
      const id = randomUUID();
      try {
        await this.db.getRepository(TeamEntity).insert({
          orgId: actor.orgId,
          id,
          name: input.name,
          slug,
          description: cleanDescription(input.description) ?? null,
          createdAt: now,
          updatedAt: now,
        });
      } catch (e) {
        if (!isUniqueViolation(e, 'teams_slug_uq')) throw e;
        if (explicit) throw slugConflict(explicit);
        if (attempt >= AUTO_SLUG_ATTEMPTS) throw Errors.conflict('Could not pick a free slug; retry or send one', 'team_slug_taken');
        continue;
      }
      const team = await findTeam(this.db, actor.orgId, id);
      if (!team) throw Errors.notFound('Team not found');
      return toTeamResponse(team);
    }
  }
}
