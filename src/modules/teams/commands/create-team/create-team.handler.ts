import { randomUUID } from 'node:crypto';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { Errors } from '../../../../common/errors/domain-error';
import { cleanDescription } from '../../../../common/http/input';
import { slugify } from '../../../../common/naming/slug';
import { isUniqueViolation, nextFreeSlug, slugConflict } from '../../team-slug';
import { toTeamResponse } from '../../teams.mapper';
import { TeamsRepository } from '../../teams.repository';
import type { TeamResponse } from '../../teams.response';
import { CreateTeamCommand } from './create-team.command';

/** Derived slugs are retried when a concurrent create takes the same one. */
const AUTO_SLUG_ATTEMPTS = 5;

/** Owners and admins create teams. A single-row insert: no transaction needed. */
@CommandHandler(CreateTeamCommand)
export class CreateTeamHandler implements ICommandHandler<CreateTeamCommand, TeamResponse> {
  constructor(
    private readonly teams: TeamsRepository,
    private readonly access: AccessPolicyService,
  ) {}

  async execute({ actor, input }: CreateTeamCommand): Promise<TeamResponse> {
    this.access.assertOrgAdmin(actor, 'Only organization owners and admins can create teams');
    const explicit = input.slug ?? undefined;
    if (explicit && (await this.teams.slugTaken(actor.orgId, explicit))) throw slugConflict(explicit);
    const base = slugify(input.name, 'team');
    for (let attempt = 1; ; attempt++) {
      const slug = explicit ?? (await nextFreeSlug(this.teams, actor.orgId, base));
      const now = new Date();
      const id = randomUUID();
      try {
        await this.teams.insert({ orgId: actor.orgId, id, name: input.name, slug, description: cleanDescription(input.description) ?? null, now });
      } catch (e) {
        if (!isUniqueViolation(e, 'teams_slug_uq')) throw e;
        if (explicit) throw slugConflict(explicit);
        if (attempt >= AUTO_SLUG_ATTEMPTS) throw Errors.conflict('Could not pick a free slug; retry or send one', 'team_slug_taken');
        continue;
      }
      const team = await this.teams.find(actor.orgId, id);
      if (!team) throw Errors.notFound('Team not found');
      return toTeamResponse(team);
    }
  }
}
