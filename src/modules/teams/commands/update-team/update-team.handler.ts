import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { Errors } from '../../../../common/errors/domain-error';
import { cleanDescription } from '../../../../common/http/input';
import { isUniqueViolation, slugConflict } from '../../team-slug';
import { toTeamResponse } from '../../teams.mapper';
import { TeamsRepository } from '../../teams.repository';
import type { TeamResponse } from '../../teams.response';
import { UpdateTeamCommand } from './update-team.command';

@CommandHandler(UpdateTeamCommand)
export class UpdateTeamHandler implements ICommandHandler<UpdateTeamCommand, TeamResponse> {
  constructor(
    private readonly teams: TeamsRepository,
    private readonly access: AccessPolicyService,
  ) {}

  async execute({ actor, teamId, changes }: UpdateTeamCommand): Promise<TeamResponse> {
    this.access.assertOrgAdmin(actor, 'Only organization owners and admins can update teams');
    if (changes.name === undefined && changes.slug === undefined && changes.description === undefined) {
      throw Errors.validation('Nothing to update: send name, slug or description');
    }
    const current = await this.teams.find(actor.orgId, teamId);
    if (!current) throw Errors.notFound('Team not found');
    const patch: { name?: string; slug?: string; description?: string | null; updatedAt: Date } = { updatedAt: new Date() };
    if (changes.name !== undefined) patch.name = changes.name;
    if (changes.description !== undefined) patch.description = cleanDescription(changes.description) ?? null;
    if (changes.slug !== undefined && changes.slug !== current.slug) {
      if (await this.teams.slugTaken(actor.orgId, changes.slug, teamId)) throw slugConflict(changes.slug);
      patch.slug = changes.slug;
    }
    try {
      await this.teams.update(actor.orgId, teamId, patch);
    } catch (e) {
      if (patch.slug && isUniqueViolation(e, 'teams_slug_uq')) throw slugConflict(patch.slug);
      throw e;
    }
    const team = await this.teams.find(actor.orgId, teamId);
    if (!team) throw Errors.notFound('Team not found');
    return toTeamResponse(team);
  }
}
