import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { Errors } from '../../../../common/errors/domain-error';
import { LabelEntity } from '../../entities/label.entity';
import { DeleteLabelCommand } from './delete-label.command';

/** Owners and admins only. Links from issues to the label are expected to cascade with it. */
@CommandHandler(DeleteLabelCommand)
export class DeleteLabelHandler implements ICommandHandler<DeleteLabelCommand, void> {
  constructor(
    private readonly db: DataSource,
    private readonly access: AccessPolicyService,
  ) {}

  async execute({ actor, labelId }: DeleteLabelCommand): Promise<void> {
    this.access.assertOrgAdmin(actor, 'Only organization owners and admins can delete labels');
    const res = await this.db.getRepository(LabelEntity).delete({ orgId: actor.orgId, id: labelId });
    if (!res.affected) throw Errors.notFound('Label not found');
  }
}
