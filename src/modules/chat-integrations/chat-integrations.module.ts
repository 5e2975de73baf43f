import { Module } from '@nestjs/common';
import { ChatIntegrationsController } from './chat-integrations.controller';
import { ChatLinksRepository } from './chat-links.repository';
import { DisconnectChatMemberHandler } from './commands/disconnect-chat-member/disconnect-chat-member.handler';

/**
 * Chat provider integration (interface.md "Chat provider integration"): members' links to a chat
 * account (`chat_member_links`, Google Chat), and the member's own disconnect, which needs a
 * human web session.
 */
@Module({
  controllers: [ChatIntegrationsController],
  providers: [ChatLinksRepository, DisconnectChatMemberHandler],
})
export class ChatIntegrationsModule {}
