import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { ChatLinksRepository } from '../../chat-links.repository';
import { DisconnectChatMemberCommand } from './disconnect-chat-member.command';

/**
 * Disconnects the calling member from a chat provider (interface.md "Chat provider integration"):
 * only a human web session (agents, API keys and OAuth tokens are 403; the route also says so),
 * only the caller's own link. Idempotent: without a link it is the same `{ ok: true }`.
 */
@CommandHandler(DisconnectChatMemberCommand)
export class DisconnectChatMemberHandler implements ICommandHandler<DisconnectChatMemberCommand, void> {
  constructor(
    private readonly links: ChatLinksRepository,
    private readonly access: AccessPolicyService,
  ) {}

  async execute({ actor, provider }: DisconnectChatMemberCommand): Promise<void> {
    this.access.assertHuman(actor, 'Disconnecting a chat account needs a human web session');
    await this.links.unlink(actor.orgId, actor.memberId, provider);
  }
}
