/** An intake request as it arrived: the unparsed body and its request headers. */
export class ReceiveEmailCommand {
  constructor(
    readonly raw: Buffer,
    readonly headers: Record<string, string | string[] | undefined>,
  ) {}
}
