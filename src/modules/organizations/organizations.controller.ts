import { Body, Controller, Delete, Get, Patch, Post, Query } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { CurrentActor, CurrentPrincipal, HumanOnly, OrgScoped } from '../../common/auth/decorators';
import type { Actor, HumanPrincipal, Principal } from '../../common/auth/principal';
import { parsePage } from '../../common/http/list';
import { CreateOrganizationCommand } from './commands/create-organization/create-organization.command';
import { CreateOrganizationDto } from './commands/create-organization/create-organization.dto';
import { DeleteOrganizationCommand } from './commands/delete-organization/delete-organization.command';
import { UpdateOrganizationCommand } from './commands/update-organization/update-organization.command';
import { UpdateOrganizationDto } from './commands/update-organization/update-organization.dto';
import { BillingResponse, OrganizationEnvelope, OrganizationList, SuccessResponse } from './organizations.response';
import { GetBillingQuery } from './queries/get-billing/get-billing.query';
import { GetOrganizationQuery } from './queries/get-organization/get-organization.query';
import { ListOrganizationsQuery } from './queries/list-organizations/list-organizations.query';

@ApiTags('organizations')
@Controller('api/orgs')
export class OrganizationsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Get()
  @ApiOperation({ summary: 'Organizations the caller belongs to' })
  @ApiQuery({ name: 'limit', required: false })
  @ApiQuery({ name: 'offset', required: false })
  @ApiQuery({ name: 'shape', required: false, enum: ['envelope'] })
  @ApiOkResponse({ type: OrganizationList })
  list(@CurrentPrincipal() principal: Principal, @Query() query: Record<string, unknown>) {
    return this.queries.execute(new ListOrganizationsQuery(principal, parsePage(query)));
  }

  @Post()
  @HumanOnly()
  @ApiOperation({ summary: 'Create an organization; the caller becomes its owner (humans only)' })
  @ApiCreatedResponse({ type: OrganizationEnvelope })
  async create(@CurrentPrincipal() principal: Principal, @Body() dto: CreateOrganizationDto): Promise<OrganizationEnvelope> {
    const name = dto.name.trim();
    const organization = await this.commands.execute(new CreateOrganizationCommand(principal as HumanPrincipal, name || dto.name, dto.issue_prefix));
    return { organization };
  }

  @Get(':id')
  @OrgScoped()
  @ApiOperation({ summary: 'One organization (404 when the caller is not a member)' })
  @ApiOkResponse({ type: OrganizationEnvelope })
  async get(@CurrentActor() actor: Actor): Promise<OrganizationEnvelope> {
    return { organization: await this.queries.execute(new GetOrganizationQuery(actor)) };
  }

  @Patch(':id')
  @OrgScoped()
  @ApiOperation({ summary: 'Update name or default issue prefix (owners and admins)' })
  @ApiOkResponse({ type: OrganizationEnvelope })
  async update(@CurrentActor() actor: Actor, @Body() dto: UpdateOrganizationDto): Promise<OrganizationEnvelope> {
    const organization = await this.commands.execute(
      new UpdateOrganizationCommand(actor, { name: dto.name?.trim() || dto.name, issuePrefix: dto.issue_prefix }),
    );
    return { organization };
  }

  @Delete(':id')
  @OrgScoped()
  @ApiOperation({ summary: 'Delete the organization and everything in it (owners, human session)' })
  @ApiOkResponse({ type: SuccessResponse })
  async remove(@CurrentActor() actor: Actor): Promise<SuccessResponse> {
    await this.commands.execute(new DeleteOrganizationCommand(actor));
    return { success: true };
  }

  @Get(':id/billing')
  @OrgScoped()
  @ApiOperation({ summary: 'Plan, limits (null = unlimited) and current usage' })
  @ApiOkResponse({ type: BillingResponse })
  billing(@CurrentActor() actor: Actor): Promise<BillingResponse> {
    return this.queries.execute(new GetBillingQuery(actor));
  }
}
