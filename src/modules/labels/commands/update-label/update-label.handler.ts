import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { Errors } from '../../../../common/errors/domain-error';
import { LabelEntity } from '../../entities/label.entity';
import { cleanDescription, isLabelNameViolation, labelNameTaken, normalizeColor } from '../../label-input';
import { toLabelResponse } from '../../labels.mapper';
import type { LabelResponse } from '../../labels.response';
import { UpdateLabelCommand } from './update-label.command';

/** Owners and admins only: a label is shared vocabulary, renaming it changes every tagged issue. */
@CommandHandler(UpdateLabelCommand)
export class UpdateLabelHandler implements ICommandHandler<UpdateLabelCommand, LabelResponse> {
  constructor(
    private readonly db: DataSource,
    private readonly access: AccessPolicyService,
  ) {}

  async execute({ actor, labelId, changes }: UpdateLabelCommand): Promise<LabelResponse> {
    this.access.assertOrgAdmin(actor, 'Only organization owners and admins can change labels');
    if (changes.name === undefined && changes.color === undefined && changes.description === undefined) {
      throw Errors.validation('Nothing to update: send name, color or description');
    }
    const repo = this.db.getRepository(LabelEntity);
    const label = await repo.findOneBy({ orgId: actor.orgId, id: labelId });
    if (!label) throw Errors.notFound('Label not found');
    if (changes.name !== undefined) {
      const taken: unknown[] = await this.db.query('SELECT 1 FROM labels WHERE org_id = $1 AND lower(name) = lower($2) AND id <> $3', [
        actor.orgId,
        changes.name,
        labelId,
      ]);
      if (taken.length) throw labelNameTaken(changes.name);
      label.name = changes.name;
    }
    if (changes.color !== undefined) label.color = normalizeColor(changes.color) ?? null;
    if (changes.description !== undefined) label.description = cleanDescription(changes.description) ?? null;
    label.updatedAt = new Date();
    let affected: number | undefined;
    try {
      ({ affected } = await repo.update({ orgId: actor.orgId, id: labelId }, { name: label.name, color: label.color, description: label.description, updatedAt: label.updatedAt }));
    } catch (e) {
      if (isLabelNameViolation(e)) throw labelNameTaken(label.name);
      throw e;
    }
    if (!affected) throw Errors.notFound('Label not found'); // deleted meanwhile
    return toLabelResponse(label);
  }
}
