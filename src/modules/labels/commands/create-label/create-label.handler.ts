import { randomUUID } from 'node:crypto';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { cleanDescription, isLabelNameViolation, labelNameTaken, normalizeColor } from '../../label-input';
import { toLabelResponse } from '../../labels.mapper';
import { type LabelRow, LabelsRepository } from '../../labels.repository';
import type { LabelResponse } from '../../labels.response';
import { CreateLabelCommand } from './create-label.command';

/** Any non-guest member creates labels (guests 403). */
@CommandHandler(CreateLabelCommand)
export class CreateLabelHandler implements ICommandHandler<CreateLabelCommand, LabelResponse> {
  constructor(
    private readonly labels: LabelsRepository,
    private readonly access: AccessPolicyService,
  ) {}

  async execute({ actor, input }: CreateLabelCommand): Promise<LabelResponse> {
    await this.access.assertOrgWideMember(actor, 'Guests cannot create labels');
    if (await this.labels.nameTaken(actor.orgId, input.name)) throw labelNameTaken(input.name);
    const now = new Date();
    const label: LabelRow = {
      id: randomUUID(),
      name: input.name,
      color: normalizeColor(input.color) ?? null,
      description: cleanDescription(input.description) ?? null,
      created_at: now,
      updated_at: now,
    };
    try {
      await this.labels.insert(actor.orgId, label);
    } catch (e) {
      if (isLabelNameViolation(e)) throw labelNameTaken(input.name);
      throw e;
    }
    return toLabelResponse(label);
  }
}
