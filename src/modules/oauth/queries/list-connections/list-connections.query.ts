/** GET /api/oauth/connections: the signed-in human's live OAuth connections. */
export class ListConnectionsQuery {
  constructor(readonly userId: string) {}
}
