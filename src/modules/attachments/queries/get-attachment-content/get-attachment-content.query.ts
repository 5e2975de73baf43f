import type { Actor } from '../../../../common/auth/principal';

export class GetAttachmentContentQuery {
  constructor(
    readonly actor: Actor,
    readonly issueId: string,
    readonly attachmentId: string,
  ) {}
}
