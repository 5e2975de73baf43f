export class SignupCommand {
  constructor(
    readonly email: string,
    readonly password: string,
    readonly displayName: string,
  ) {}
}
