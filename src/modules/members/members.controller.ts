import { Body, Controller, Delete, Get, Param, Patch, Post, Query } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiCreatedResponse, ApiExtraModels, ApiOkResponse, ApiOperation, ApiQuery, ApiResponse, ApiTags, getSchemaPath } from '@nestjs/swagger';
import { CurrentActor, OrgScoped } from '../../common/auth/decorators';
import type { Actor } from '../../common/auth/principal';
import { Errors } from '../../common/errors/domain-error';
import { UuidParamPipe } from '../../common/http/validation';
import { CreateInvitationCommand } from './commands/create-invitation/create-invitation.command';
import { CreateInvitationDto } from './commands/create-invitation/create-invitation.dto';
import { RemoveMemberCommand } from './commands/remove-member/remove-member.command';
import { UpdateMemberCommand } from './commands/update-member/update-member.command';
import { UpdateMemberDto } from './commands/update-member/update-member.dto';
import { InvitationEnvelope } from './invitations.response';
import { MemberDirectory, MemberEnvelope, MemberList, ProfileEnvelope, SuccessResponse } from './members.response';
import { GetProfileQuery } from './queries/get-profile/get-profile.query';
import { ListMembersQuery } from './queries/list-members/list-members.query';

@ApiTags('members')
@OrgScoped()
@Controller('api/orgs/:id')
@ApiExtraModels(MemberList, MemberDirectory)
export class MembersController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Get('members')
  @ApiOperation({
    summary: 'Members: the legacy list, or the directory (selected by shape=envelope or any of q, limit, offset)',
    description: 'Directory items have exactly id, display_name, type, role, avatar_url. Unprojected results exclude guests. `includeEmail` changes nothing.',
  })
  @ApiQuery({ name: 'shape', required: false, enum: ['envelope'] })
  @ApiQuery({ name: 'q', required: false, description: 'Case-insensitive display-name search' })
  @ApiQuery({ name: 'type', required: false, enum: ['human', 'agent'], description: 'Only humans or only agents' })
  @ApiQuery({ name: 'projectId', required: false, description: 'Project scope (caller needs access)' })
  @ApiQuery({ name: 'limit', required: false, description: 'Default 25, max 100' })
  @ApiQuery({ name: 'offset', required: false })
  @ApiOkResponse({ schema: { oneOf: [{ $ref: getSchemaPath(MemberList) }, { $ref: getSchemaPath(MemberDirectory) }] } })
  list(@CurrentActor() actor: Actor, @Query() query: Record<string, unknown>) {
    return this.queries.execute(new ListMembersQuery(actor, query));
  }

  @Post('members')
  @ApiOperation({
    summary: 'Invite an email address with a role (owners and admins): a pending invitation, not a membership',
    description:
      'The account with that email (now or after signing up) sees the invitation in `GET /api/invitations` and accepts it ' +
      '(`POST /api/invitations/{id}/accept`) to become a member with the role. The answer is the same whether or not an account has ' +
      'the email. Invitations expire after 7 days; pending ones count toward the plan’s human limit; owners and admins list and ' +
      'revoke them under `/api/orgs/{id}/invitations`.',
  })
  @ApiCreatedResponse({ type: InvitationEnvelope })
  @ApiResponse({ status: 402, description: 'Plan limit (humans: members plus pending invitations) reached' })
  @ApiResponse({ status: 409, description: '`already_member` (the email belongs to a member) or `invitation_pending` (one is pending for the email)' })
  @ApiResponse({ status: 429, description: 'Too many invitations from this organization (INVITATION_RATE_LIMIT_PER_HOUR)' })
  async invite(@CurrentActor() actor: Actor, @Body() dto: CreateInvitationDto): Promise<InvitationEnvelope> {
    return { invitation: await this.commands.execute(new CreateInvitationCommand(actor, dto.email, dto.role ?? 'member')) };
  }

  @Patch('members/:memberId')
  @ApiOperation({ summary: 'Change a member’s role or display name (the last owner cannot be demoted)' })
  @ApiOkResponse({ type: MemberEnvelope })
  @ApiResponse({ status: 409, description: 'The last owner cannot be demoted' })
  async update(@CurrentActor() actor: Actor, @Param('memberId', UuidParamPipe) memberId: string, @Body() dto: UpdateMemberDto): Promise<MemberEnvelope> {
    const displayName = dto.display_name?.trim();
    if (displayName === '') throw Errors.validation('display_name must not be blank');
    return { member: await this.commands.execute(new UpdateMemberCommand(actor, memberId, { displayName, role: dto.role })) };
  }

  @Delete('members/:memberId')
  @ApiOperation({ summary: 'Remove a member (owners and admins; anyone may remove themself; the last owner cannot go)' })
  @ApiOkResponse({ type: SuccessResponse })
  @ApiResponse({ status: 409, description: 'The last owner cannot be removed' })
  async remove(@CurrentActor() actor: Actor, @Param('memberId', UuidParamPipe) memberId: string): Promise<SuccessResponse> {
    await this.commands.execute(new RemoveMemberCommand(actor, memberId));
    return { success: true };
  }

  @Get('profile')
  @ApiOperation({ summary: 'The caller’s own member record' })
  @ApiOkResponse({ type: ProfileEnvelope })
  async profile(@CurrentActor() actor: Actor): Promise<ProfileEnvelope> {
    return { member: await this.queries.execute(new GetProfileQuery(actor)) };
  }
}
