import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { Errors } from '../../../../common/errors/domain-error';
import { checkSafeIdentifier, EXTERNAL_RUN_ID_MAX, HARNESS_KIND_MAX } from '../../execution-rules';
import { ExecutionWriter } from '../../execution-writer.service';
import { toExecution } from '../../executions.mapper';
import { ExecutionsRepository } from '../../executions.repository';
import type { ExecutionEnvelope } from '../../executions.response';
import { type Answer, IdempotentWrites } from '../../idempotent-writes.service';
import { CreateExecutionCommand } from './create-execution.command';

/**
 * Needs edit on the issue's project (404 unreadable, 403 view-only). `agent_member_id` must be a
 * live agent that can read the issue (422 `AGENT_MEMBER_INVALID`). Starts `assigned`, version 1.
 */
@CommandHandler(CreateExecutionCommand)
export class CreateExecutionHandler implements ICommandHandler<CreateExecutionCommand, Answer<ExecutionEnvelope>> {
  constructor(
    private readonly access: AccessPolicyService,
    private readonly executions: ExecutionsRepository,
    private readonly writer: ExecutionWriter,
    private readonly idem: IdempotentWrites,
  ) {}

  async execute({ actor, dto }: CreateExecutionCommand): Promise<Answer<ExecutionEnvelope>> {
    const harnessKind = checkSafeIdentifier('harness_kind', dto.harness_kind, HARNESS_KIND_MAX);
    const externalRunId = checkSafeIdentifier('external_run_id', dto.external_run_id, EXTERNAL_RUN_ID_MAX);
    const issue = await this.access.assertIssueWrite(actor, dto.issue_id);
    const agent = await this.executions.liveMember(actor.orgId, dto.agent_member_id.toLowerCase());
    const readers = agent?.type === 'agent' ? await this.access.issueReadersAmong(actor.orgId, [agent.id], issue.projectId) : [];
    if (!agent || !readers.length) {
      throw Errors.unprocessable('agent_member_id must be a live agent of the organization that can read the issue', 'AGENT_MEMBER_INVALID');
    }
    const body = { ...dto, issue_id: issue.id, agent_member_id: agent.id, harness_kind: harnessKind, external_run_id: externalRunId };
    return this.idem.run(actor, 'execution.create', dto.idempotency_key, body, async (m) => {
      const row = await this.writer.create(m, actor, {
        issueId: issue.id,
        projectId: issue.projectId,
        agentMemberId: agent.id,
        harnessKind,
        externalRunId,
        reason: dto.reason ?? null,
        summary: dto.summary ?? null,
      });
      return { status: 201, body: { execution: toExecution(row) } };
    });
  }
}
