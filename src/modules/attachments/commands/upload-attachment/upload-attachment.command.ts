import type { Actor } from '../../../../common/auth/principal';
import type { IncomingUpload } from '../../upload-reader';

export class UploadAttachmentCommand {
  constructor(
    readonly actor: Actor,
    readonly issueId: string,
    /** Reads the multipart body (after the access check; its 400s come then). */
    readonly readUpload: () => Promise<IncomingUpload>,
  ) {}
}
