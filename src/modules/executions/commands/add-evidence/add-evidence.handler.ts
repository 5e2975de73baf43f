import { randomUUID } from 'node:crypto';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { ExecutionAccess } from '../../execution-access.service';
import { toEvidence } from '../../executions.mapper';
import { ExecutionsRepository } from '../../executions.repository';
import type { EvidenceEnvelope } from '../../executions.response';
import { type Answer, IdempotentWrites } from '../../idempotent-writes.service';
import { AddEvidenceCommand } from './add-evidence.command';

/**
 * Edit access on the execution's issue. A `link_type: issue` target must be an issue the caller
 * can read (404 otherwise); other targets are stored as references (UUID) and shown only as
 * `{ link_type, target_id }`. The same link twice is one row.
 */
@CommandHandler(AddEvidenceCommand)
export class AddEvidenceHandler implements ICommandHandler<AddEvidenceCommand, Answer<EvidenceEnvelope>> {
  constructor(
    private readonly guard: ExecutionAccess,
    private readonly access: AccessPolicyService,
    private readonly executions: ExecutionsRepository,
    private readonly idem: IdempotentWrites,
  ) {}

  async execute({ actor, executionId, dto }: AddEvidenceCommand): Promise<Answer<EvidenceEnvelope>> {
    const row = await this.guard.write(actor, executionId);
    const targetId = dto.target_id.toLowerCase();
    if (dto.link_type === 'issue') await this.access.assertIssueRead(actor, targetId);
    return this.idem.run(actor, `execution.evidence:${row.id}`, dto.idempotency_key, { ...dto, target_id: targetId }, async (m) => {
      const ev = await this.executions.addEvidence(
        actor.orgId,
        { id: randomUUID(), executionId: row.id, linkType: dto.link_type, targetId, createdBy: actor.memberId },
        m,
      );
      return { status: 201, body: { evidence: toEvidence(ev) } };
    });
  }
}
