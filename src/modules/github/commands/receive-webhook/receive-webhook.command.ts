export class ReceiveWebhookCommand {
  constructor(
    readonly connectionId: string,
    /** The exact request body bytes (verified before parsing) */
    readonly rawBody: Buffer | undefined,
    readonly headers: Record<string, string | string[] | undefined>,
  ) {}
}
