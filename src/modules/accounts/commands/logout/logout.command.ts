export class LogoutCommand {
  constructor(readonly token: string | undefined) {}
}
