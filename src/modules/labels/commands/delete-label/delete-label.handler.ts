import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { Errors } from '../../../../common/errors/domain-error';
import { LabelsRepository } from '../../labels.repository';
import { DeleteLabelCommand } from './delete-label.command';

/** Owners and admins only. Links from issues to the label are expected to cascade with it. */
@CommandHandler(DeleteLabelCommand)
export class DeleteLabelHandler implements ICommandHandler<DeleteLabelCommand, void> {
  constructor(
    private readonly labels: LabelsRepository,
    private readonly access: AccessPolicyService,
  ) {}

  async execute({ actor, labelId }: DeleteLabelCommand): Promise<void> {
    this.access.assertOrgAdmin(actor, 'Only organization owners and admins can delete labels');
    if (!(await this.labels.delete(actor.orgId, labelId))) throw Errors.notFound('Label not found');
  }
}
