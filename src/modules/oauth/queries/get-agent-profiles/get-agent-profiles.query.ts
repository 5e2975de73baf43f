/** GET /api/oauth/agent-profiles with the raw bearer (`null`: none) of the request. */
export class GetAgentProfilesQuery {
  constructor(
    readonly bearer: string | null,
    readonly resource: string,
  ) {}
}
