import type { Actor } from '../../../../common/auth/principal';

export class AckHeartbeatCommand {
  constructor(
    readonly actor: Actor,
    readonly body: Record<string, unknown>,
  ) {}
}
