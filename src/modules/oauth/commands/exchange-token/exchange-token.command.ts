/** POST /api/oauth/token (form or JSON fields); `resource` is this service's MCP resource, `ip` the caller's address. */
export class ExchangeTokenCommand {
  constructor(
    readonly body: Record<string, unknown>,
    readonly resource: string,
    readonly ip: string,
  ) {}
}

export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token: string;
  scope?: string;
}
