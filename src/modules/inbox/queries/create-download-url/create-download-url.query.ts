import type { Actor } from '../../../../common/auth/principal';

export class CreateDownloadUrlQuery {
  constructor(
    readonly actor: Actor,
    readonly emailId: string,
    readonly attachmentId: string,
    /** The service's origin as the caller reached it (SERVICE_PUBLIC_URL wins) */
    readonly origin: string,
  ) {}
}
