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
import { NOTIFICATION_ACTION_KINDS } from '../notifications/notification-kinds';
import { CLAIM_KINDS, ERROR_CODES, LEASE_TRANSITIONS, MUTATION_RETENTION_HOURS, PROGRESS_CODES, ROUTING_ID_MAX } from './runner-rules';
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
  @ApiOperation({
    summary: 'Atomic claim { issueId, idempotencyKey, claimKind? }: 201 { lease, token, token_reissued }; replays 200',
    description:
      'Claim kinds. `ordinary` (default): an assigned, unarchived, non-terminal, dependency-satisfied issue the agent can edit, for its ' +
      'current, connected, active runner; links a new execution (harness_kind service_local_runner, external_run_id = lease id). ' +
      '`attention_resume` resumes an agent thread from an attention notification and also requires `attentionItemId` (the id of the ' +
      "caller's own notification), `runnerHostId` (1..255), `preservedThreadId` (1..255) and `actionKind`: the notification must be the " +
      "caller's and visible (404 RUNNER_ATTENTION_NOT_FOUND), about this issue (409 RUNNER_ATTENTION_SOURCE_MISMATCH), ask " +
      '`resume_agent_thread` as `actionKind` says (409 RUNNER_ATTENTION_ACTION_MISMATCH), be unread (409 RUNNER_ATTENTION_ALREADY_READ) ' +
      'and not consumed by another attention lease in any state but orphaned (409 RUNNER_ATTENTION_ALREADY_CLAIMED); `runnerHostId` must ' +
      "be the installation's registered host and the notification's routed host (409 RUNNER_ATTENTION_HOST_MISMATCH) and " +
      '`preservedThreadId` its routed thread (409 RUNNER_ATTENTION_THREAD_MISMATCH; no new-thread fallback); a `verification.completed` ' +
      'notification bound to another run is 409 RUNNER_LEASE_VERIFICATION_BINDING_MISMATCH (it stays unread). The canonical human-attention ' +
      'resume adds `attention_source: "human_attention"` with `execution_id`, `human_attention_item_id`, `expected_attention_version`, ' +
      "`expected_execution_version` (with claimKind attention_resume its notification is the item's `attention.resolved` answer; without " +
      'it `runnerHostId` and `preservedThreadId` are optional): the execution is waiting (409 RUNNER_ATTENTION_EXECUTION_NOT_WAITING) ' +
      'at the expected version (409 STALE_STATE_VERSION), the item resolved (409 RUNNER_ATTENTION_NOT_RESOLVED) at the expected version ' +
      "(409 STALE_ATTENTION_VERSION), the execution's last lease held by this installation (409 RUNNER_ATTENTION_INSTALLATION_MISMATCH) " +
      'on the same host (409 RUNNER_ATTENTION_HOST_MISMATCH) and in the retained thread (409 RUNNER_ATTENTION_THREAD_MISMATCH); the lease ' +
      'continues that execution. Attention claims skip the blocker check; one live lease per issue still holds. Replays of the same ' +
      'idempotencyKey: an untouched pre-intent active lease gets a new token (`token_reissued: true`); an attention lease that ended ' +
      '(any closed state but orphaned) only acknowledges its notification (`notification_acknowledged: true`, `token: null`); other ' +
      'replays `token: null`; another body under the key 409 IDEMPOTENCY_KEY_REUSED. ' +
      LEASE_STATES,
  })
  @ApiBody({
    schema: {
      type: 'object',
      required: ['issueId', 'idempotencyKey'],
      properties: {
        issueId: { type: 'string', format: 'uuid', description: 'Also accepted as `issue_id`.' },
        idempotencyKey: { type: 'string', minLength: 1, maxLength: 200, description: 'Also accepted as `idempotency_key`.' },
        claimKind: { type: 'string', enum: [...CLAIM_KINDS], description: 'Default `ordinary`. Also accepted as `claim_kind`.' },
        attentionItemId: {
          type: 'string',
          format: 'uuid',
          description: "attention_resume: the caller's attention notification (for the human-attention source also the attention item id)",
        },
        runnerHostId: { type: 'string', minLength: 1, maxLength: ROUTING_ID_MAX, description: "attention_resume: the runner's host routing identity" },
        preservedThreadId: { type: 'string', minLength: 1, maxLength: ROUTING_ID_MAX, description: 'attention_resume: the agent thread to resume' },
        actionKind: {
          type: 'string',
          enum: [...NOTIFICATION_ACTION_KINDS],
          description: "attention_resume: the notification's action kind (resume_agent_thread)",
        },
        attention_source: { type: 'string', enum: ['human_attention'] },
        execution_id: { type: 'string', format: 'uuid' },
        human_attention_item_id: { type: 'string', format: 'uuid' },
        expected_attention_version: { type: 'integer', minimum: 1 },
        expected_execution_version: { type: 'integer', minimum: 1 },
      },
    } as unknown as SchemaObject,
  })
  @ApiCreatedResponse({ type: LeaseClaimResponse, description: 'Claimed: `{ lease, token, token_reissued }`' })
  @ApiOkResponse({
    type: LeaseClaimResponse,
    description: 'A replay of the same idempotencyKey: the lease, with a reissued token when it was untouched, or acknowledging an ended attention lease',
  })
  @ApiErrors({ 409: 'RUNNER_* claim rejections, stale versions and IDEMPOTENCY_KEY_REUSED (see the description)' })
  async claim(@CurrentActor() actor: Actor, @Body() body: unknown, @Res({ passthrough: true }) reply: FastifyReply): Promise<LeaseClaimResponse> {
    const a = await this.commands.execute(new ClaimLeaseCommand(actor, body));
    reply.status(a.status);
    return a.body;
  }

  @Patch('runner-leases/:leaseId')
  @AgentOnly()
  @ApiOperation({
    summary:
      'Fenced write { token, claimGeneration, sequence, mutationId, transition, progress?, errorCode?, threadId? }; transitions renew, progress, turn_intent_persisted, started, ' +
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
        mutationId: {
          type: 'string',
          format: 'uuid',
          description: `Idempotency of this write: an exact retry (same mutationId and body) answers the stored result for ${MUTATION_RETENTION_HOURS} hours. Also accepted as \`mutation_id\`.`,
        },
        transition: { type: 'string', enum: [...LEASE_TRANSITIONS] },
        progress: { type: ['string', 'null'], enum: [...PROGRESS_CODES, null], description: 'Required for the `progress` transition' },
        errorCode: { type: ['string', 'null'], enum: [...ERROR_CODES, null], description: 'Also accepted as `error_code`.' },
        threadId: {
          type: 'string',
          minLength: 1,
          maxLength: 255,
          description:
            'turn_intent_persisted and started only: the agent thread the lease works in, set once (another one 409 RUNNER_LEASE_THREAD_MISMATCH, ' +
            'or RUNNER_LEASE_VERIFICATION_BINDING_MISMATCH for a verified resume bound to another run); a later human-attention resume must preserve it. ' +
            'Also accepted as `thread_id`.',
        },
      },
    } as unknown as SchemaObject,
  })
  @ApiOkResponse({ type: LeaseEnvelope })
  update(@CurrentActor() actor: Actor, @Param('leaseId') leaseId: string, @Body() body: unknown): Promise<LeaseEnvelope> {
    return this.commands.execute(new UpdateLeaseCommand(actor, leaseId, body));
  }
}
