import { randomUUID } from 'node:crypto';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { LabelEntity } from '../../entities/label.entity';
import { cleanDescription, isLabelNameViolation, labelNameTaken, normalizeColor } from '../../label-input';
import { toLabelResponse } from '../../labels.mapper';
import type { LabelResponse } from '../../labels.response';
import { CreateLabelCommand } from './create-label.command';

/** Any non-guest member creates labels (guests 403). */
@CommandHandler(CreateLabelCommand)
export class CreateLabelHandler implements ICommandHandler<CreateLabelCommand, LabelResponse> {
  constructor(
    private readonly db: DataSource,
    private readonly access: AccessPolicyService,
  ) {}

  async execute({ actor, input }: CreateLabelCommand): Promise<LabelResponse> {
    await this.access.assertOrgWideMember(actor, 'Guests cannot create labels');
    const taken: unknown[] = await this.db.query('SELECT 1 FROM labels WHERE org_id = $1 AND lower(name) = lower($2)', [actor.orgId, input.name]);
    if (taken.length) throw labelNameTaken(input.name);
    const now = new Date();
    const label = this.db.getRepository(LabelEntity).create({
      orgId: actor.orgId,
      id: randomUUID(),
      name: input.name,
      color: normalizeColor(input.color) ?? null,
      description: cleanDescription(input.description) ?? null,
      createdAt: now,
      updatedAt: now,
    });
    try {
      await this.db.getRepository(LabelEntity).insert(label);
    } catch (e) {
      if (isLabelNameViolation(e)) throw labelNameTaken(input.name);
      throw e;
    }
    return toLabelResponse(label);
  }
}
