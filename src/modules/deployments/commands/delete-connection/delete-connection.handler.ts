import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { Errors } from '../../../../common/errors/domain-error';
import { DeploymentsRepository } from '../../deployments.repository';
import { DeleteConnectionCommand } from './delete-connection.command';

/** Owners and admins delete a connection; its observations and deployment projection go with it, and its callback URL answers 404. */
@CommandHandler(DeleteConnectionCommand)
export class DeleteConnectionHandler implements ICommandHandler<DeleteConnectionCommand, { success: true }> {
  constructor(
    private readonly access: AccessPolicyService,
    private readonly repo: DeploymentsRepository,
  ) {}

  async execute({ actor, connectionId }: DeleteConnectionCommand): Promise<{ success: true }> {
    this.access.assertOrgAdmin(actor, 'Only organization owners and admins can manage deployment connections');
    if (!(await this.repo.deleteConnection(actor.orgId, connectionId))) throw Errors.notFound('Deployment connection not found');
    return { success: true };
  }
}
