import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { CurrentActor, OrgScoped } from '../../common/auth/decorators';
import type { Actor } from '../../common/auth/principal';
import { UuidParamPipe } from '../../common/http/validation';
import { ApiErrors } from '../../common/openapi/decorators';
import { CreateConnectionCommand } from './commands/create-connection/create-connection.command';
import { CreateConnectionDto } from './commands/create-connection/create-connection.dto';
import { DeleteConnectionCommand } from './commands/delete-connection/delete-connection.command';
import {
  DeploymentConnectionDetailEnvelope,
  DeploymentConnectionEnvelope,
  DeploymentConnectionListResponse,
  DeploymentSuccessResponse,
} from './deployments.response';
import { GetConnectionQuery } from './queries/get-connection/get-connection.query';
import { ListConnectionsQuery } from './queries/list-connections/list-connections.query';

/** Deployment-provider connections (owners and admins; credentials write-only). */
@ApiTags('deployments')
@ApiParam({ name: 'id', description: 'Organization id' })
@OrgScoped()
@Controller('api/orgs/:id/deployment-connections')
export class DeploymentsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Get()
  @ApiOperation({ summary: 'The deployment connections of the organization (owners and admins); never credentials' })
  @ApiOkResponse({ type: DeploymentConnectionListResponse })
  list(@CurrentActor() actor: Actor): Promise<DeploymentConnectionListResponse> {
    return this.queries.execute(new ListConnectionsQuery(actor));
  }

  @Post()
  @ApiOperation({
    summary: 'Connect a Vercel project { provider: "vercel", token, team_id, project_id, webhook_secret } (owners and admins)',
    description:
      'The token, team and project are validated live against the provider before anything is stored; the token and signing secret are sealed at rest and never returned. The provider signs its callbacks to `webhook_path` with `webhook_secret`.',
  })
  @ApiCreatedResponse({ type: DeploymentConnectionEnvelope })
  @ApiErrors({
    422: '`provider_token_invalid` (the provider refused the token), `provider_project_not_found`, `provider_unavailable` (timeout, 5xx or an unusable answer)',
  })
  create(@CurrentActor() actor: Actor, @Body() dto: CreateConnectionDto): Promise<DeploymentConnectionEnvelope> {
    return this.commands.execute(new CreateConnectionCommand(actor, dto));
  }

  @Get(':connectionId')
  @ApiOperation({ summary: 'One connection with the deployments its verified callbacks established (owners and admins)' })
  @ApiParam({ name: 'connectionId', description: 'Deployment connection id' })
  @ApiOkResponse({ type: DeploymentConnectionDetailEnvelope })
  get(@CurrentActor() actor: Actor, @Param('connectionId', UuidParamPipe) connectionId: string): Promise<DeploymentConnectionDetailEnvelope> {
    return this.queries.execute(new GetConnectionQuery(actor, connectionId));
  }

  @Delete(':connectionId')
  @HttpCode(200)
  @ApiOperation({ summary: 'Delete a connection and what it recorded (owners and admins); its callback URL then answers 404' })
  @ApiParam({ name: 'connectionId', description: 'Deployment connection id' })
  @ApiOkResponse({ type: DeploymentSuccessResponse })
  remove(@CurrentActor() actor: Actor, @Param('connectionId', UuidParamPipe) connectionId: string): Promise<DeploymentSuccessResponse> {
    return this.commands.execute(new DeleteConnectionCommand(actor, connectionId));
  }
}
