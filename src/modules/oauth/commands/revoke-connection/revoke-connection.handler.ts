import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { Errors } from '../../../../common/errors/domain-error';
import { OAuthRepository } from '../../oauth.repository';
import { RevokeConnectionCommand } from './revoke-connection.command';

/** Revokes the connection and with it every token (checked on each request, so the next request is refused). Another human's or an unknown connection: 404. */
@CommandHandler(RevokeConnectionCommand)
export class RevokeConnectionHandler implements ICommandHandler<RevokeConnectionCommand, { success: true }> {
  constructor(private readonly repo: OAuthRepository) {}

  async execute({ userId, connectionId }: RevokeConnectionCommand): Promise<{ success: true }> {
    if (!(await this.repo.revokeUserGrant(connectionId, userId))) throw Errors.notFound('Connection not found');
    return { success: true };
  }
}
