import type { Actor } from '../../../../common/auth/principal';
import type { IncomingUpload } from '../../upload-reader';

export class UploadAttachmentCommand {
  constructor(
    readonly actor: Actor,
    readonly issueId: string,
    readonly upload: IncomingUpload,
  ) {}
}
