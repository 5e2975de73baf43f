/** POST /api/oauth/revoke (RFC 7009) by a public client. */
export class RevokeTokenCommand {
  constructor(readonly body: Record<string, unknown>) {}
}
