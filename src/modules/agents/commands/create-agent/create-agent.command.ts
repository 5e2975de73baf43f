import type { Actor } from '../../../../common/auth/principal';

export class CreateAgentCommand {
  constructor(
    readonly actor: Actor,
    readonly name: string,
    readonly role: 'member' | 'admin' | undefined,
    /** projectIds / project_ids, when sent */
    readonly projectIds: string[] | undefined,
    /** legacy projectId / project_id, when sent */
    readonly legacyProjectId: string | undefined,
    readonly personal: boolean,
  ) {}
}
