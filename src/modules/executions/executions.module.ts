import { Module } from '@nestjs/common';
import { AttentionRepository } from './attention.repository';
import { AcknowledgeAttentionHandler } from './commands/acknowledge-attention/acknowledge-attention.handler';
import { AddEvidenceHandler } from './commands/add-evidence/add-evidence.handler';
import { CancelAttentionHandler } from './commands/cancel-attention/cancel-attention.handler';
import { CancelExecutionHandler } from './commands/cancel-execution/cancel-execution.handler';
import { CreateAttentionHandler } from './commands/create-attention/create-attention.handler';
import { CreateExecutionHandler } from './commands/create-execution/create-execution.handler';
import { ResolveAttentionHandler } from './commands/resolve-attention/resolve-attention.handler';
import { TransitionExecutionHandler } from './commands/transition-execution/transition-execution.handler';
import { ExecutionAccess } from './execution-access.service';
import { ExecutionAttentionReader } from './execution-attention.reader';
import { ExecutionWriter } from './execution-writer.service';
import { ExecutionsController } from './executions.controller';
import { ExecutionsRepository } from './executions.repository';
import { IdempotencyRepository } from './idempotency.repository';
import { IdempotentWrites } from './idempotent-writes.service';
import { GetAttentionHandler } from './queries/get-attention/get-attention.handler';
import { GetExecutionHandler } from './queries/get-execution/get-execution.handler';
import { ListAttentionHandler } from './queries/list-attention/list-attention.handler';
import { ListExecutionsHandler } from './queries/list-executions/list-executions.handler';

/**
 * Agent executions: management state of agent work on an issue (the service neither starts nor
 * resumes a harness), with ordered transitions, evidence references and attention requests.
 *
 * - Access follows the CURRENT project: unreadable 404 (concealed), read-only 403 for
 *   writes; projectless issues for non-guests; `project_id_at_creation` grants nothing.
 * - Create / transition / evidence / cancel: edit access; transitions and cancel by the
 *   execution's agent or a human; attention requests raised, cancelled and acknowledged by the
 *   requesting agent, resolved by a human with edit access.
 * - Keyed writes are idempotent (IdempotentWrites); the state machine is in execution-rules.ts and
 *   in the database (migration 1765630000000).
 * - Exports: ExecutionWriter (the runner links an execution to each lease), ExecutionAttentionReader
 *   (the heartbeat's `execution_attention`).
 */
@Module({
  controllers: [ExecutionsController],
  providers: [
    ExecutionsRepository,
    AttentionRepository,
    IdempotencyRepository,
    IdempotentWrites,
    ExecutionAccess,
    ExecutionWriter,
    ExecutionAttentionReader,
    CreateExecutionHandler,
    TransitionExecutionHandler,
    AddEvidenceHandler,
    CancelExecutionHandler,
    CreateAttentionHandler,
    ResolveAttentionHandler,
    CancelAttentionHandler,
    AcknowledgeAttentionHandler,
    ListExecutionsHandler,
    GetExecutionHandler,
    ListAttentionHandler,
    GetAttentionHandler,
  ],
  exports: [ExecutionWriter, ExecutionAttentionReader, ExecutionsRepository, AttentionRepository, IdempotentWrites],
})
export class ExecutionsModule {}
