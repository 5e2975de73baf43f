import type { Actor } from '../../../../common/auth/principal';

export class CreateStatusUpdateCommand {
  constructor(
    readonly actor: Actor,
    readonly projectId: string,
    readonly body: { status?: unknown; summary?: unknown },
  ) {}
}
