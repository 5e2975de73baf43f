import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { isUuid } from '../../../../common/http/validation';
import { oauthError } from '../../oauth-errors';
import { OAuthRepository } from '../../oauth.repository';
import { hashSecret } from '../../oauth-tokens';
import { RevokeTokenCommand } from './revoke-token.command';

/**
 * RFC 7009: the answer is 200 whether or not the token was known (nothing is disclosed). An
 * access token stops working at once; a refresh token revokes its whole connection. Only the
 * client the token was issued to can revoke it.
 */
@CommandHandler(RevokeTokenCommand)
export class RevokeTokenHandler implements ICommandHandler<RevokeTokenCommand, Record<string, never>> {
  constructor(private readonly repo: OAuthRepository) {}

  async execute({ body }: RevokeTokenCommand): Promise<Record<string, never>> {
    const token = typeof body.token === 'string' ? body.token : undefined;
    if (!token) throw oauthError('invalid_request', 'token is required');
    const clientId = typeof body.client_id === 'string' && isUuid(body.client_id) ? body.client_id.toLowerCase() : undefined;
    if (!clientId) throw oauthError('invalid_client', 'client_id is required', 401);
    const hash = hashSecret(token);
    const row = await this.repo.lockToken(hash, null);
    if (!row || row.client_id !== clientId) return {};
    if (row.kind === 'refresh') await this.repo.revokeGrant(row.grant_id, 'client');
    else await this.repo.revokeToken(hash);
    return {};
  }
}
