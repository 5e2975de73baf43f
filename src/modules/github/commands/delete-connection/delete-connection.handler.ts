import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { Errors } from '../../../../common/errors/domain-error';
import { GithubConnectionsRepository } from '../../github-connections.repository';
import type { GithubSuccessResponse } from '../../github.response';
import { DeleteConnectionCommand } from './delete-connection.command';

/** Owners and admins delete a connection (its secrets and delivery records go with it; links and references stay). */
@CommandHandler(DeleteConnectionCommand)
export class DeleteConnectionHandler implements ICommandHandler<DeleteConnectionCommand, GithubSuccessResponse> {
  constructor(
    private readonly access: AccessPolicyService,
    private readonly connections: GithubConnectionsRepository,
  ) {}

  async execute({ actor, connectionId }: DeleteConnectionCommand): Promise<GithubSuccessResponse> {
    this.access.assertOrgAdmin(actor);
    if (!(await this.connections.delete(actor.orgId, connectionId))) throw Errors.notFound('GitHub connection not found');
    return { success: true };
  }
}
