/**
 * GET /api/oauth/authorize: the authorization request of a client (RFC 6749 §4.1.1 with PKCE and
 * RFC 8707 `resource`), made by the signed-in human `userId` (null: no session).
 */
export class StartAuthorizationCommand {
  constructor(
    readonly query: Record<string, unknown>,
    readonly userId: string | null,
    readonly resource: string,
    readonly issuer: string,
    readonly requestUrl: string,
  ) {}
}

export type AuthorizationOutcome =
  | { kind: 'redirect'; location: string }
  | {
      kind: 'consent';
      authorization_id: string;
      client: { client_id: string; client_name: string | null; client_uri: string | null; redirect_uri: string };
      resource: string;
      scope: string | null;
      agents: Array<{ id: string; display_name: string; organization: { id: string; name: string }; designation: string }>;
    };
