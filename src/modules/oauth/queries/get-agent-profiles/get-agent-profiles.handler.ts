import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { AuthService } from '../../../../common/auth/auth.service';
import { Errors } from '../../../../common/errors/domain-error';
import { API_KEY_PREFIX } from '../../../../common/auth/tokens';
import { ProfileErrors } from '../../oauth-errors';
import { OAuthProfiles } from '../../oauth-profiles.service';
import { OAuthRepository } from '../../oauth.repository';
import { ACCESS_TOKEN_PREFIX, hashSecret, wellFormedSecret } from '../../oauth-tokens';
import { GetAgentProfilesQuery } from './get-agent-profiles.query';

/**
 * The connection's usable profiles, resolved live. An agent API key gets 400
 * `profile_selector_not_supported` (profiles are an OAuth notion); a missing, unknown, expired or
 * revoked token 401; a connection with no usable profile left 403 `no_profiles_authorized`.
 */
@QueryHandler(GetAgentProfilesQuery)
export class GetAgentProfilesHandler implements IQueryHandler<GetAgentProfilesQuery, Record<string, unknown>> {
  constructor(
    private readonly profiles: OAuthProfiles,
    private readonly repo: OAuthRepository,
    private readonly auth: AuthService,
  ) {}

  async execute({ bearer, resource }: GetAgentProfilesQuery): Promise<Record<string, unknown>> {
    if (!bearer) throw Errors.unauthorized();
    if (bearer.startsWith(API_KEY_PREFIX)) {
      if (await this.auth.fromApiKey(bearer)) throw ProfileErrors.notSupported();
      throw Errors.unauthorized();
    }
    if (!wellFormedSecret(bearer, ACCESS_TOKEN_PREFIX)) throw Errors.unauthorized();
    const grant = await this.repo.grantByAccessToken(hashSecret(bearer), resource);
    if (!grant) throw Errors.unauthorized();
    const usable = await this.profiles.usable(grant);
    if (usable.length === 0) throw ProfileErrors.noProfiles();
    return { resource: grant.resource, profiles: await this.profiles.summaries(usable) };
  }
}
