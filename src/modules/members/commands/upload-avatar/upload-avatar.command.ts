import type { Actor } from '../../../../common/auth/principal';
import type { IncomingUpload } from '../../../attachments/upload-reader';

export class UploadAvatarCommand {
  constructor(
    readonly actor: Actor,
    readonly memberId: string,
    readonly upload: IncomingUpload,
  ) {}
}
