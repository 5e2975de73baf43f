import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** RFC 7591 §3.2.1 client information: a public client (no secret). */
export class OAuthClientRegistrationResponse {
  @ApiProperty({ format: 'uuid' }) client_id!: string;
  @ApiProperty({ type: 'integer', description: 'Seconds since the epoch' }) client_id_issued_at!: number;
  @ApiPropertyOptional() client_name?: string;
  @ApiPropertyOptional() client_uri?: string;
  @ApiProperty({ type: [String], description: 'Exact redirect URIs (no wildcards)' }) redirect_uris!: string[];
  @ApiProperty({ type: [String], enum: ['authorization_code', 'refresh_token'], isArray: true }) grant_types!: string[];
  @ApiProperty({ type: [String], enum: ['code'], isArray: true }) response_types!: string[];
  @ApiProperty({ enum: ['none'] }) token_endpoint_auth_method!: string;
  @ApiPropertyOptional() scope?: string;
}

export class OAuthOrganizationRef {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() name!: string;
}

/** An agent the signed-in human may manage, offered on the consent page. */
export class OAuthConsentableAgent {
  @ApiProperty({ format: 'uuid', description: 'Agent member id' }) id!: string;
  @ApiProperty() display_name!: string;
  @ApiProperty({ type: OAuthOrganizationRef }) organization!: OAuthOrganizationRef;
  @ApiProperty({ type: String, nullable: true, description: "The agent's scope (personal, organization, …)" }) designation!: string | null;
}

export class OAuthRequestingClient {
  @ApiProperty({ format: 'uuid' }) client_id!: string;
  @ApiProperty({ type: String, nullable: true }) client_name!: string | null;
  @ApiProperty({ type: String, nullable: true }) client_uri!: string | null;
  @ApiProperty() redirect_uri!: string;
}

/** The pending authorization request a signed-in human decides on (POST /api/oauth/consent). */
export class OAuthAuthorizationRequestResponse {
  @ApiProperty({ enum: ['consent'] }) kind!: string;
  @ApiProperty({ format: 'uuid', description: 'Send back to POST /api/oauth/consent' }) authorization_id!: string;
  @ApiProperty({ type: OAuthRequestingClient }) client!: OAuthRequestingClient;
  @ApiProperty({ description: 'The MCP resource the token will be bound to' }) resource!: string;
  @ApiProperty({ type: String, nullable: true }) scope!: string | null;
  @ApiProperty({ type: [OAuthConsentableAgent] }) agents!: OAuthConsentableAgent[];
}

/** A redirect: the body repeats the `Location` header. */
export class OAuthRedirectResponse {
  @ApiProperty({ description: 'The `Location` of the 302' }) redirect_to!: string;
}

/** RFC 6749 §5.1 token response. */
export class OAuthTokenResponse {
  @ApiProperty({ description: 'Opaque access token, bound to the MCP resource' }) access_token!: string;
  @ApiProperty({ enum: ['Bearer'] }) token_type!: string;
  @ApiProperty({ type: 'integer', description: 'Access token lifetime in seconds' }) expires_in!: number;
  @ApiProperty({ description: 'Single-use refresh token (rotated on every refresh)' }) refresh_token!: string;
}

/** RFC 7009: an empty object, whatever the token. */
export class OAuthRevocationResponse {}

export class OAuthConnectionClient {
  @ApiProperty({ format: 'uuid' }) client_id!: string;
  @ApiProperty({ type: String, nullable: true }) client_name!: string | null;
}

export class OAuthConnectionAgent {
  @ApiProperty({ description: 'The profile selector of this agent on the connection' }) profile_ref!: string;
  @ApiProperty({ format: 'uuid' }) agent_id!: string;
  @ApiProperty({ format: 'uuid' }) organization_id!: string;
}

export class OAuthConnection {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ type: OAuthConnectionClient }) client!: OAuthConnectionClient;
  @ApiProperty() resource!: string;
  @ApiProperty({ type: String, nullable: true }) scope!: string | null;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) last_used_at!: string | null;
  @ApiProperty({ type: [OAuthConnectionAgent] }) agents!: OAuthConnectionAgent[];
}

export class OAuthConnectionListResponse {
  @ApiProperty({ type: [OAuthConnection], description: 'Newest first, at most 200; never tokens' }) connections!: OAuthConnection[];
}

export class OAuthSuccessResponse {
  @ApiProperty({ enum: [true] }) success!: boolean;
}

export class OAuthProfileProject {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() name!: string;
  @ApiProperty() access_level!: string;
}

export class OAuthAgentProfile {
  @ApiProperty({ description: 'Send as `X-Profile-Ref` (or `profile_ref`) to act as this agent' }) profile_ref!: string;
  @ApiProperty() display_name!: string;
  @ApiProperty({ type: OAuthOrganizationRef }) organization!: OAuthOrganizationRef;
  @ApiProperty({ type: [OAuthProfileProject], description: "The agent's project access, live" }) projects!: OAuthProfileProject[];
  @ApiProperty({ type: String, nullable: true }) designation!: string | null;
}

export class OAuthAgentProfilesResponse {
  @ApiProperty() resource!: string;
  @ApiProperty({ type: [OAuthAgentProfile] }) profiles!: OAuthAgentProfile[];
}

/** RFC 9728 protected-resource metadata. */
export class OAuthProtectedResourceMetadataResponse {
  @ApiProperty({ description: 'The MCP resource (`<origin>/mcp`)' }) resource!: string;
  @ApiProperty({ type: [String] }) authorization_servers!: string[];
  @ApiProperty({ type: [String] }) bearer_methods_supported!: string[];
  @ApiProperty() resource_name!: string;
}

/** RFC 8414 authorization-server metadata. */
export class OAuthAuthorizationServerMetadataResponse {
  @ApiProperty() issuer!: string;
  @ApiProperty() authorization_endpoint!: string;
  @ApiProperty() token_endpoint!: string;
  @ApiProperty() registration_endpoint!: string;
  @ApiProperty() revocation_endpoint!: string;
  @ApiProperty({ type: [String] }) response_types_supported!: string[];
  @ApiProperty({ type: [String] }) response_modes_supported!: string[];
  @ApiProperty({ type: [String] }) grant_types_supported!: string[];
  @ApiProperty({ type: [String] }) code_challenge_methods_supported!: string[];
  @ApiProperty({ type: [String] }) token_endpoint_auth_methods_supported!: string[];
  @ApiProperty({ type: [String] }) revocation_endpoint_auth_methods_supported!: string[];
  @ApiProperty() authorization_response_iss_parameter_supported!: boolean;
}
