import { Module } from '@nestjs/common';
import { AgentsModule } from '../agents/agents.module';
import { ProjectsModule } from '../projects/projects.module';
import { DecideConsentHandler } from './commands/decide-consent/decide-consent.handler';
import { ExchangeTokenHandler } from './commands/exchange-token/exchange-token.handler';
import { RegisterClientHandler } from './commands/register-client/register-client.handler';
import { RevokeConnectionHandler } from './commands/revoke-connection/revoke-connection.handler';
import { RevokeTokenHandler } from './commands/revoke-token/revoke-token.handler';
import { StartAuthorizationHandler } from './commands/start-authorization/start-authorization.handler';
import { ManageableAgents } from './manageable-agents.service';
import { OAuthController } from './oauth.controller';
import { OAuthProfiles } from './oauth-profiles.service';
import { OAuthRepository } from './oauth.repository';
import { OAuthUrls } from './oauth-urls';
import { GetAgentProfilesHandler } from './queries/get-agent-profiles/get-agent-profiles.handler';
import { ListConnectionsHandler } from './queries/list-connections/list-connections.handler';
import { WellKnownController } from './well-known.controller';

/**
 * The OAuth 2.1 authorization server of the service's own MCP resource (issue 16): discovery
 * metadata, dynamic registration of public clients, authorization code + PKCE S256 with the
 * resource bound into every code and token, consent by a signed-in human for chosen agents,
 * refresh rotation with reuse detection, revocation, connections, agent profiles. Registers
 * OAuthProfiles as the auth guard's resolver of OAuth bearers (src/common/auth/oauth-bearer.ts)
 * and exports it to the MCP endpoint.
 */
@Module({
  imports: [AgentsModule, ProjectsModule],
  controllers: [WellKnownController, OAuthController],
  providers: [
    OAuthRepository,
    OAuthUrls,
    OAuthProfiles,
    ManageableAgents,
    RegisterClientHandler,
    StartAuthorizationHandler,
    DecideConsentHandler,
    ExchangeTokenHandler,
    RevokeTokenHandler,
    RevokeConnectionHandler,
    ListConnectionsHandler,
    GetAgentProfilesHandler,
  ],
  exports: [OAuthProfiles, OAuthUrls],
})
export class OAuthModule {}
