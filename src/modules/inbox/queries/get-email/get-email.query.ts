import type { Actor } from '../../../../common/auth/principal';

export class GetEmailQuery {
  constructor(
    readonly actor: Actor,
    readonly emailId: string,
  ) {}
}
