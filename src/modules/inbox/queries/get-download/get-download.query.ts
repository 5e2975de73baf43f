/** A signed download URL as requested (no credentials: the signature is the authorization). */
export class GetDownloadQuery {
  constructor(
    readonly orgId: string,
    readonly emailId: string,
    readonly attachmentId: string,
    readonly expires: unknown,
    readonly signature: unknown,
  ) {}
}
