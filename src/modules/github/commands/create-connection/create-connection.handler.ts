import { randomUUID } from 'node:crypto';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { Clock } from '../../../../common/clock/clock';
import { Errors } from '../../../../common/errors/domain-error';
import { GithubConnectionsRepository } from '../../github-connections.repository';
import { GithubProvider } from '../../github-provider.service';
import { connectionResponse } from '../../github.mapper';
import type { GithubConnectionEnvelope } from '../../github.response';
import { CreateConnectionCommand } from './create-connection.command';

/**
 * Owners and admins connect GitHub: the token is validated live (GET /user) before anything is
 * stored; a refused token is 422 `github_token_invalid`, an unreachable or failing provider 422
 * `github_unavailable` (never a 5xx). Token and webhook secret are sealed (SecretBox, bound to the
 * row) and never returned.
 */
@CommandHandler(CreateConnectionCommand)
export class CreateConnectionHandler implements ICommandHandler<CreateConnectionCommand, GithubConnectionEnvelope> {
  constructor(
    private readonly access: AccessPolicyService,
    private readonly provider: GithubProvider,
    private readonly connections: GithubConnectionsRepository,
    private readonly clock: Clock,
  ) {}

  async execute({ actor, dto }: CreateConnectionCommand): Promise<GithubConnectionEnvelope> {
    this.access.assertOrgAdmin(actor);
    const token = dto.token.trim();
    if (!/^[\x21-\x7e]+$/.test(token)) throw Errors.validation('token must be printable ASCII without spaces');
    const user = await this.provider.api.user(token);
    if (!user.ok) {
      if (user.reason === 'unauthorized' || user.reason === 'forbidden') throw Errors.unprocessable('GitHub refused the token', 'github_token_invalid');
      throw Errors.unprocessable('GitHub could not be reached to validate the token; retry later', 'github_unavailable');
    }
    const login = typeof user.data?.login === 'string' ? user.data.login.slice(0, 100) : null;
    const accountId = Number.isSafeInteger(user.data?.id) ? String(user.data.id) : null;
    const id = randomUUID();
    const row = await this.connections.insert(
      {
        org_id: actor.orgId,
        id,
        token_sealed: this.provider.seal(actor.orgId, id, 'token', token),
        webhook_secret_sealed: this.provider.seal(actor.orgId, id, 'webhook_secret', dto.webhook_secret),
        account_login: login,
        account_id: accountId,
        created_by_member_id: actor.memberId,
      },
      this.clock.now(),
    );
    return { connection: connectionResponse(row!) };
  }
}
