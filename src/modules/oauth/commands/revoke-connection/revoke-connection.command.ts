/** DELETE /api/oauth/connections/{id} by the human who consented. */
export class RevokeConnectionCommand {
  constructor(
    readonly userId: string,
    readonly connectionId: string,
  ) {}
}
