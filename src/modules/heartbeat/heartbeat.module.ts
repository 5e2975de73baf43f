import { ProjectStatusModule } from '../project-status/project-status.module';
import { Module } from '@nestjs/common';
import { AgentsModule } from '../agents/agents.module';
import { DependenciesModule } from '../dependencies/dependencies.module';
import { ExecutionsModule } from '../executions/executions.module';
import { NotificationsModule } from '../notifications/notifications.module';
import { StrategyHealthModule } from '../strategy-health/strategy-health.module';
import { WebhooksCoreModule } from '../webhooks/webhooks-core.module';
import { AckHeartbeatHandler } from './commands/ack-heartbeat/ack-heartbeat.handler';
import { DeleteHeartbeatPolicyHandler } from './commands/delete-heartbeat-policy/delete-heartbeat-policy.handler';
import { PutHeartbeatPolicyHandler } from './commands/put-heartbeat-policy/put-heartbeat-policy.handler';
import { ExecutionAttentionProvider, ExecutionsAttention } from './execution-attention.provider';
import { HeartbeatComposer } from './heartbeat-composer.service';
import { HeartbeatCursorCodec } from './heartbeat-cursor';
import { HeartbeatPolicyService } from './heartbeat-policy.service';
import { HeartbeatStateRepository } from './heartbeat-state.repository';
import { HeartbeatController } from './heartbeat.controller';
import { HeartbeatRepository } from './heartbeat.repository';
import { HeartbeatService } from './heartbeat.service';
import { GetHeartbeatHandler } from './queries/get-heartbeat/get-heartbeat.handler';
import { GetHeartbeatPolicyHandler } from './queries/get-heartbeat-policy/get-heartbeat-policy.handler';
import { PreviewHeartbeatHandler } from './queries/preview-heartbeat/preview-heartbeat.handler';

/**
 * The agent heartbeat (interface.md "Heartbeat"; routes.md "Agents at work").
 *
 * - GET /heartbeat: every member; content filtered by the caller's live project access (owners and
 *   admins: everything; members: every project plus organization-level strategy and projectless
 *   work; guests and project-scoped agents: only their projects, no organization-level strategy;
 *   personal agents: their owner's access, board context of their own work only). Counts are over
 *   readable work only; nothing of an unreadable project appears in a count, message or id.
 * - Time-based signals are judged by the strategy audit's rules (strategy-health.ts: one place).
 * - Kept results (src/common/cache/read-models.ts): HEARTBEAT_WORK per organization (both views),
 *   HEARTBEAT_STRATEGY per readable project set, HEARTBEAT_CONTEXT per visibility and view (built
 *   on both), HEARTBEAT per caller, trusted under the 'issues', 'strategy' and 'heartbeat' data versions.
 * - Compact paging state lives in heartbeat_streams; cursors are HMAC-signed (HeartbeatCursorCodec);
 *   run ids are digests of the run, so an unchanged fresh heartbeat rewrites no paging state.
 * - Policies (heartbeat_policies) are managed by humans who can manage the agent.
 * - `execution_attention` comes from the executions module's attention queue (ExecutionsAttention);
 *   workflow verification items are `verification.completed` notifications (src/modules/github
 *   notifies): REST attention carries them with their `verification` object; the MCP tool leaves
 *   them out (interface.md "Heartbeat": the public MCP heartbeat excludes them).
 */
@Module({
  imports: [StrategyHealthModule, DependenciesModule, NotificationsModule, WebhooksCoreModule, AgentsModule, ExecutionsModule, ProjectStatusModule],
  controllers: [HeartbeatController],
  providers: [
    HeartbeatRepository,
    HeartbeatStateRepository,
    HeartbeatCursorCodec,
    HeartbeatComposer,
    HeartbeatService,
    HeartbeatPolicyService,
    { provide: ExecutionAttentionProvider, useClass: ExecutionsAttention },
    GetHeartbeatHandler,
    GetHeartbeatPolicyHandler,
    PreviewHeartbeatHandler,
    AckHeartbeatHandler,
    PutHeartbeatPolicyHandler,
    DeleteHeartbeatPolicyHandler,
  ],
})
export class HeartbeatModule {}
