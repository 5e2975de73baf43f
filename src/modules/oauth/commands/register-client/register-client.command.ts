/** RFC 7591 dynamic client registration of a public client; `ip` is the caller's address (rate limit). */
export class RegisterClientCommand {
  constructor(
    readonly body: Record<string, unknown>,
    readonly ip: string,
  ) {}
}
