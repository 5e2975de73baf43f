import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { Errors } from '../../../../common/errors/domain-error';
import { cleanDescription, isLabelNameViolation, labelNameTaken, normalizeColor } from '../../label-input';
import { toLabelResponse } from '../../labels.mapper';
import { LabelsRepository } from '../../labels.repository';
import type { LabelResponse } from '../../labels.response';
import { UpdateLabelCommand } from './update-label.command';

/** Owners and admins only: a label is shared vocabulary, renaming it changes every tagged issue. */
@CommandHandler(UpdateLabelCommand)
export class UpdateLabelHandler implements ICommandHandler<UpdateLabelCommand, LabelResponse> {
  constructor(
    private readonly labels: LabelsRepository,
    private readonly access: AccessPolicyService,
  ) {}

  async execute({ actor, labelId, changes }: UpdateLabelCommand): Promise<LabelResponse> {
    this.access.assertOrgAdmin(actor, 'Only organization owners and admins can change labels');
    if (changes.name === undefined && changes.color === undefined && changes.description === undefined) {
      throw Errors.validation('Nothing to update: send name, color or description');
    }
    const label = await this.labels.find(actor.orgId, labelId);
    if (!label) throw Errors.notFound('Label not found');
    if (changes.name !== undefined) {
      if (await this.labels.nameTaken(actor.orgId, changes.name, labelId)) throw labelNameTaken(changes.name);
      label.name = changes.name;
    }
    if (changes.color !== undefined) label.color = normalizeColor(changes.color) ?? null;
    if (changes.description !== undefined) label.description = cleanDescription(changes.description) ?? null;
    label.updated_at = new Date();
    let affected: number;
    try {
      affected = await this.labels.update(actor.orgId, label);
    } catch (e) {
      if (isLabelNameViolation(e)) throw labelNameTaken(label.name);
      throw e;
    }
    if (!affected) throw Errors.notFound('Label not found'); // deleted meanwhile
    return toLabelResponse(label);
  }
}
