import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { Clock } from '../../../../common/clock/clock';
import { Errors } from '../../../../common/errors/domain-error';
import { GithubConnectionsRepository } from '../../github-connections.repository';
import { connectionResponse } from '../../github.mapper';
import type { GithubConnectionEnvelope } from '../../github.response';
import { UpdateConnectionCommand } from './update-connection.command';

/** Owners and admins switch the verification mode (`off` by default, `attention` opt-in) or disable a connection. */
@CommandHandler(UpdateConnectionCommand)
export class UpdateConnectionHandler implements ICommandHandler<UpdateConnectionCommand, GithubConnectionEnvelope> {
  constructor(
    private readonly access: AccessPolicyService,
    private readonly connections: GithubConnectionsRepository,
    private readonly clock: Clock,
  ) {}

  async execute({ actor, connectionId, dto }: UpdateConnectionCommand): Promise<GithubConnectionEnvelope> {
    this.access.assertOrgAdmin(actor);
    const row = await this.connections.update(actor.orgId, connectionId, { verification_mode: dto.verification_mode, enabled: dto.enabled }, this.clock.now());
    if (!row) throw Errors.notFound('GitHub connection not found');
    return { connection: connectionResponse(row) };
  }
}
