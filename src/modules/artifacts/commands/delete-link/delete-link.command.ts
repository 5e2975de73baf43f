import type { Actor } from '../../../../common/auth/principal';

export class DeleteLinkCommand {
  constructor(
    readonly actor: Actor,
    readonly artifactId: string,
    readonly linkId: string,
  ) {}
}
