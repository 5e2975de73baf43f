/** A callback as it arrived: the path's connection id, the unparsed body and the signature header. */
export class ReceiveVercelEventCommand {
  constructor(
    readonly connectionId: string,
    readonly raw: Buffer,
    readonly signature: unknown,
  ) {}
}
