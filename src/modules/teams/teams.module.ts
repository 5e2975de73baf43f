import { Module } from '@nestjs/common';
import { MembersModule } from '../members/members.module';
import { AddTeamMemberHandler } from './commands/add-team-member/add-team-member.handler';
import { CreateTeamHandler } from './commands/create-team/create-team.handler';
import { DeleteTeamHandler } from './commands/delete-team/delete-team.handler';
import { RemoveTeamMemberHandler } from './commands/remove-team-member/remove-team-member.handler';
import { UpdateTeamHandler } from './commands/update-team/update-team.handler';
import { GetTeamHandler } from './queries/get-team/get-team.handler';
import { ListTeamMembersHandler } from './queries/list-team-members/list-team-members.handler';
import { ListTeamsHandler } from './queries/list-teams/list-teams.handler';
import { TeamsController } from './teams.controller';
import { TeamsRepository } from './teams.repository';

/**
 * Teams of an organization and their members.
 *
 * Access (decided by AccessPolicyService):
 * - Reads (list, detail, team members): every non-guest member. Guests (including project-scoped
 *   agents) get 403: a team list exposes the organization's structure, which guests must not see.
 *   The answer does not depend on whether the team exists, so it discloses nothing.
 * - Writes (team create/update/delete, adding/removing team members): owners and admins (403 for
 *   others).
 * - Team members must be active members of the same organization (404 otherwise; 409 when already
 *   in the team). Guests may be added; per the access policy, team membership grants `edit` on the
 *   team's projects to non-guests only, so it gives a guest nothing until its role changes.
 * - Nothing is cached: the access policy reads team_members on every request, so joining or
 *   leaving a team changes project access on the next request.
 *
 * Slugs: lowercase kebab-case, unique per organization. Derived from the name when omitted
 * (`-2`, `-3`, … when taken); an explicit slug that is taken is 409 `team_slug_taken`. Renaming
 * a team keeps its slug.
 */
@Module({
  imports: [MembersModule],
  controllers: [TeamsController],
  providers: [
    TeamsRepository,
    CreateTeamHandler,
    UpdateTeamHandler,
    DeleteTeamHandler,
    AddTeamMemberHandler,
    RemoveTeamMemberHandler,
    ListTeamsHandler,
    GetTeamHandler,
    ListTeamMembersHandler,
  ],
  exports: [TeamsRepository],
})
export class TeamsModule {}
