import type { Actor } from '../../../../common/auth/principal';
import type { ChatProvider } from '../../chat-links.repository';

export class DisconnectChatMemberCommand {
  constructor(
    readonly actor: Actor,
    readonly provider: ChatProvider,
  ) {}
}
