import { applyDecorators, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiOkResponse, ApiOperation, ApiParam, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import { CurrentActor, CurrentPrincipal, HumanOnly, OrgScoped } from '../../common/auth/decorators';
import type { Actor, HumanPrincipal } from '../../common/auth/principal';
import { parsePage } from '../../common/http/list';
import { UuidParamPipe } from '../../common/http/validation';
import { AcceptInvitationCommand } from './commands/accept-invitation/accept-invitation.command';
import { DeclineInvitationCommand } from './commands/decline-invitation/decline-invitation.command';
import { RevokeInvitationCommand } from './commands/revoke-invitation/revoke-invitation.command';
import { AcceptedInvitationResponse, InviteeInvitationEnvelope, InviteeInvitationList, OrgInvitationList } from './invitations.response';
import { SuccessResponse } from './members.response';
import { ListInvitationsQuery } from './queries/list-invitations/list-invitations.query';
import { ListMyInvitationsQuery } from './queries/list-my-invitations/list-my-invitations.query';

/** `limit`, `offset` and the list shape options. */
const ListQueries = () =>
  applyDecorators(
    ApiQuery({ name: 'limit', required: false, description: 'Page size, default 25, at most 100 (larger values are clamped)' }),
    ApiQuery({ name: 'offset', required: false, description: 'Rows to skip, default 0' }),
    ApiQuery({
      name: 'shape',
      required: false,
      enum: ['envelope', 'legacy'],
      description: '`envelope` returns `{ resource, items, total, limit, offset, nextOffset, truncated, hint }`',
    }),
  );

const Closed409 = () =>
  ApiResponse({ status: 409, description: '`invitation_expired` (past `expires_at`) or `invitation_closed` (already accepted, declined or revoked)' });

/** The organization's invitations (created by `POST /api/orgs/{id}/members`): owners and admins list and revoke them. */
@ApiTags('invitations')
@ApiParam({ name: 'id', description: 'Organization id' })
@OrgScoped()
@Controller('api/orgs/:id/invitations')
export class OrgInvitationsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Get()
  @ApiOperation({ summary: 'The organization’s invitations, newest first (owners and admins)' })
  @ApiQuery({ name: 'status', required: false, enum: ['pending', 'accepted', 'declined', 'revoked', 'expired', 'all'], description: 'Default `pending`' })
  @ListQueries()
  @ApiOkResponse({ type: OrgInvitationList, description: 'Legacy `{ invitations, total, limit, offset }`, or the envelope with `shape=envelope`' })
  list(@CurrentActor() actor: Actor, @Query() query: Record<string, unknown>): Promise<Record<string, unknown>> {
    return this.queries.execute(new ListInvitationsQuery(actor, query));
  }

  @Delete(':invitationId')
  @ApiOperation({ summary: 'Revoke a pending invitation (owners and admins); its seat is freed at once' })
  @ApiOkResponse({ type: SuccessResponse })
  @Closed409()
  async revoke(@CurrentActor() actor: Actor, @Param('invitationId', UuidParamPipe) invitationId: string): Promise<SuccessResponse> {
    await this.commands.execute(new RevokeInvitationCommand(actor, invitationId));
    return { success: true };
  }
}

/** The signed-in account's own invitations (matched by its email): see, accept, decline. Human sessions only. */
@ApiTags('invitations')
@HumanOnly()
@Controller('api/invitations')
export class MyInvitationsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Get()
  @ApiOperation({ summary: 'The caller’s pending invitations (addressed to its account’s email), each with its organization' })
  @ListQueries()
  @ApiOkResponse({ type: InviteeInvitationList, description: 'Legacy `{ invitations, total, limit, offset }`, or the envelope with `shape=envelope`' })
  list(@CurrentPrincipal() principal: HumanPrincipal, @Query() query: Record<string, unknown>): Promise<Record<string, unknown>> {
    return this.queries.execute(new ListMyInvitationsQuery(principal, parsePage(query)));
  }

  @Post(':invitationId/accept')
  @HttpCode(200)
  @ApiOperation({ summary: 'Accept: become a member with the invited role (another account’s invitation is 404)' })
  @ApiParam({ name: 'invitationId' })
  @ApiOkResponse({ type: AcceptedInvitationResponse })
  @ApiResponse({ status: 402, description: 'Plan limit (humans) exceeded' })
  @ApiResponse({ status: 409, description: '`already_member`, `invitation_expired` or `invitation_closed`' })
  accept(@CurrentPrincipal() principal: HumanPrincipal, @Param('invitationId', UuidParamPipe) invitationId: string): Promise<AcceptedInvitationResponse> {
    return this.commands.execute(new AcceptInvitationCommand(principal, invitationId));
  }

  @Post(':invitationId/decline')
  @HttpCode(200)
  @ApiOperation({ summary: 'Decline (another account’s invitation is 404)' })
  @ApiParam({ name: 'invitationId' })
  @ApiOkResponse({ type: InviteeInvitationEnvelope })
  @Closed409()
  async decline(@CurrentPrincipal() principal: HumanPrincipal, @Param('invitationId', UuidParamPipe) invitationId: string): Promise<InviteeInvitationEnvelope> {
    return { invitation: await this.commands.execute(new DeclineInvitationCommand(principal, invitationId)) };
  }
}
