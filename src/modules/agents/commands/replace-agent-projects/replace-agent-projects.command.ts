import type { Actor } from '../../../../common/auth/principal';

export class ReplaceAgentProjectsCommand {
  constructor(
    readonly actor: Actor,
    readonly agentId: string,
    readonly projectIds: string[] | undefined,
  ) {}
}
