import { Body, Controller, Delete, Get, Param, Patch, Post, Put, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiBody, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../../common/openapi/decorators';
import type { SchemaObject } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { AgentOnly, CurrentActor, HumanOnly, OrgScoped } from '../../common/auth/decorators';
import type { Actor } from '../../common/auth/principal';
import { ClaimLeaseCommand } from './commands/claim-lease/claim-lease.command';
import { DeleteRunnerSelfCommand } from './commands/delete-runner-self/delete-runner-self.command';
import { PutRunnerSelfCommand } from './commands/put-runner-self/put-runner-self.command';
import { SetRunnerIntakeCommand } from './commands/set-runner-intake/set-runner-intake.command';
import { UpdateLeaseCommand } from './commands/update-lease/update-lease.command';
import { GetRunnerSelfQuery } from './queries/get-runner-self/get-runner-self.query';
import { ListRunnersQuery } from './queries/list-runners/list-runners.query';
import { ERROR_CODES, LEASE_TRANSITIONS, PROGRESS_CODES } from './runner-rules';
import { LeaseClaimResponse, LeaseEnvelope, RunnerDisconnectResponse, RunnerEnvelope, RunnerListResponse } from './runners.response';

const LEASE_STATES =
  'Lease states: active (phases pre_intent → intent_persisted → started → model_completed) → completed | failed | aborted | orphaned (pre-intent only) | ' +
  'uncertain (uncertain_outcome: blocks automatic replacement until the holder acknowledges → acknowledged) | expired (not renewed within 5 minutes; ' +
  'worker sweep and checks on every claim and write) | replaced (a pre-intent lease of a runner that is no longer current, replaced by a new claim). ' +
  'Closed leases never change again. One live (active or uncertain) lease per issue, enforced by a partial unique index.';

/** Local runners: presence (agents), intake (humans) and fenced leases (agents). */
@ApiTags('runners')
@ApiParam({ name: 'id', description: 'Organization id' })
@OrgScoped()
@Controller('api/orgs/:id')
export class RunnersController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Get('runners/self')
  @AgentOnly()
  @ApiOperation({
    summary: "The authenticated agent's runner installation with computed presence_state (connected, stale after 10 minutes, offline after DELETE)",
  })
  @ApiOkResponse({ type: RunnerEnvelope })
  getSelf(@CurrentActor() actor: Actor): Promise<RunnerEnvelope> {
    return this.queries.execute(new GetRunnerSelfQuery(actor));
  }

  @Put('runners/self')
  @AgentOnly()
  @ApiOperation({
    summary:
      'Register or refresh: strict { runner: { instanceId, hostId?, platform (darwin|linux|windows), arch (arm64|x64|amd64), capabilities (codex, git), clientVersion } }; ' +
      '60 per agent per minute (429 RATE_LIMITED; 503 RATE_LIMIT_CHECK_FAILED when the limiter fails); another live installation 409 RUNNER_INSTALLATION_CONFLICT',
  })
  @ApiBody({ schema: { type: 'object', required: ['runner'], properties: { runner: { type: 'object' } } } })
  @ApiOkResponse({ type: RunnerEnvelope, description: 'Refreshed: `{ runner }`' })
  @ApiCreatedResponse({ type: RunnerEnvelope, description: 'A new installation: `{ runner }`' })
  @ApiErrors({
    409: '`RUNNER_INSTALLATION_CONFLICT`: another live installation of this agent',
    429: '`RATE_LIMITED`: 60 refreshes per agent per minute',
    503: '`RATE_LIMIT_CHECK_FAILED`: the limiter failed (closed)',
  })
  async putSelf(@CurrentActor() actor: Actor, @Body() body: unknown, @Res({ passthrough: true }) reply: FastifyReply): Promise<RunnerEnvelope> {
    const a = await this.commands.execute(new PutRunnerSelfCommand(actor, body));
    reply.status(a.status);
    return a.body;
  }

  @Delete('runners/self')
  @AgentOnly()
  @ApiOperation({ summary: 'Disconnect (idempotent): the runner reads offline and cannot claim, mutate or replay' })
  @ApiOkResponse({ type: RunnerDisconnectResponse })
  deleteSelf(@CurrentActor() actor: Actor): Promise<RunnerDisconnectResponse> {
    return this.commands.execute(new DeleteRunnerSelfCommand(actor));
  }

  @Get('runners')
  @HumanOnly()
  @ApiOperation({ summary: 'Runner installations the human manages (owners/admins: all; members: of their personal and created agents)' })
  @ApiOkResponse({ type: RunnerListResponse })
  list(@CurrentActor() actor: Actor): Promise<RunnerListResponse> {
    return this.queries.execute(new ListRunnersQuery(actor));
  }

  @Patch('runners/:runnerId/intake')
  @HumanOnly()
  @ApiOperation({ summary: '{ intake_state: active | paused }; same-state writes are no-ops; a paused runner cannot claim but keeps its leases' })
  @ApiBody({ schema: { type: 'object', required: ['intake_state'], properties: { intake_state: { enum: ['active', 'paused'] } } } })
  @ApiOkResponse({ type: RunnerEnvelope })
  intake(@CurrentActor() actor: Actor, @Param('runnerId') runnerId: string, @Body() body: unknown): Promise<RunnerEnvelope> {
    return this.commands.execute(new SetRunnerIntakeCommand(actor, runnerId, body));
  }

  @Post('runner-leases/claim')
  @AgentOnly()
  @ApiOperation({ summary: 'Atomic claim { issueId, idempotencyKey }: 201 { lease, token, token_reissued }; replays 200. ' + LEASE_STATES })
  @ApiBody({
    schema: { type: 'object', required: ['issueId', 'idempotencyKey'], properties: { issueId: { type: 'string' }, idempotencyKey: { type: 'string' } } },
  })
  @ApiCreatedResponse({ type: LeaseClaimResponse, description: 'Claimed: `{ lease, token, token_reissued }`' })
  @ApiOkResponse({ type: LeaseClaimResponse, description: 'A replay of the same idempotencyKey: the lease, with a reissued token when it was untouched' })
  @ApiErrors({ 422: '`RUNNER_CLAIM_KIND_UNSUPPORTED`: claimKind `attention_resume` (resume with attention_source `human_attention`)' })
  async claim(@CurrentActor() actor: Actor, @Body() body: unknown, @Res({ passthrough: true }) reply: FastifyReply): Promise<LeaseClaimResponse> {
    const a = await this.commands.execute(new ClaimLeaseCommand(actor, body));
    reply.status(a.status);
    return a.body;
  }

  @Patch('runner-leases/:leaseId')
  @AgentOnly()
  @ApiOperation({
    summary:
      'Fenced write { token, claimGeneration, sequence, mutationId, transition, progress?, errorCode? }; transitions renew, progress, turn_intent_persisted, started, ' +
      'model_completed, completed, failed, aborted, orphaned, uncertain_outcome, acknowledge. ' +
      LEASE_STATES,
  })
  @ApiBody({
    schema: {
      type: 'object',
      required: ['token', 'claimGeneration', 'sequence', 'mutationId', 'transition'],
      additionalProperties: false,
      properties: {
        token: { type: 'string', minLength: 1, maxLength: 200, description: 'The lease token. Also accepted as `leaseToken`, `lease_token`.' },
        claimGeneration: { type: 'integer', minimum: 1, description: "The lease's claim generation. Also accepted as `claim_generation`." },
        sequence: { type: 'integer', minimum: 1, maximum: 2_000_000_000, description: 'The next sequence number' },
        mutationId: { type: 'string', format: 'uuid', description: 'Idempotency of this write. Also accepted as `mutation_id`.' },
        transition: { type: 'string', enum: [...LEASE_TRANSITIONS] },
        progress: { type: ['string', 'null'], enum: [...PROGRESS_CODES, null], description: 'Required for the `progress` transition' },
        errorCode: { type: ['string', 'null'], enum: [...ERROR_CODES, null], description: 'Also accepted as `error_code`.' },
      },
    } as unknown as SchemaObject,
  })
  @ApiOkResponse({ type: LeaseEnvelope })
  update(@CurrentActor() actor: Actor, @Param('leaseId') leaseId: string, @Body() body: unknown): Promise<LeaseEnvelope> {
    return this.commands.execute(new UpdateLeaseCommand(actor, leaseId, body));
  }
}
